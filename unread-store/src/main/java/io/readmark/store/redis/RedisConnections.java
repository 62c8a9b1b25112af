package io.readmark.store.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One Lettuce client per process, standalone or cluster as the {@link RedisEndpoint} says, with its credentials and
 * TLS on every connection, Pub/Sub included. Hands out the shared connection for reads and dedicated
 * connections for pipelined writers, both through the command interfaces standalone and cluster have in common.
 */
public final class RedisConnections implements AutoCloseable {

    /** A connection and its async commands; standalone and cluster look the same from here. */
    public record Connection(StatefulConnection<String, String> stateful, RedisClusterAsyncCommands<String, String> async,
                             RedisClusterCommands<String, String> sync) implements AutoCloseable {
        @Override
        public void close() {
            stateful.close();
        }
    }

    /**
     * A connection whose keys and values are raw bytes, for writers that encode their own arguments: Lettuce then
     * knows each argument's exact length and writes it straight into the socket buffer, where a UTF-8 String
     * argument costs a temporary direct buffer, an encode and a copy on the I/O thread.
     */
    public record BinaryConnection(StatefulConnection<byte[], byte[]> stateful, RedisClusterAsyncCommands<byte[], byte[]> async,
                                   RedisClusterCommands<byte[], byte[]> sync) implements AutoCloseable {
        @Override
        public void close() {
            stateful.close();
        }
    }

    /**
     * Reconnect attempts from 100 ms apart up to 1 s apart. Lettuce's default grows to 30 s, so a Redis back after a
     * 20 s outage went unnoticed for up to 15 s more while writers waited.
     */
    private static final Delay RECONNECT_DELAY = Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS);

    private final ClientResources resources;
    private final AbstractRedisClient client;
    private final boolean cluster;
    private final Connection shared;
    private final ClientOptions pubSubOptions;
    private final RedisEndpoint endpoint;
    private RedisClient pubSubClient; // guarded by this; created on first use

    private RedisConnections(ClientResources resources, AbstractRedisClient client, RedisEndpoint endpoint, ClientOptions pubSubOptions) {
        this.resources = resources;
        this.client = client;
        this.cluster = endpoint.isCluster();
        this.endpoint = endpoint;
        this.pubSubOptions = pubSubOptions;
        try {
            this.shared = open();
        } catch (RuntimeException e) {
            // Nobody else can shut this client down: without it, every failed attempt would leak its I/O threads.
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            resources.shutdown(0, 2, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * Connects; commands fail after {@code commandTimeout}. With {@code failFastWhenDisconnected} commands are
     * rejected at once while the connection is down (for request paths), otherwise queued until it returns.
     *
     * @throws io.lettuce.core.RedisException when Redis cannot be reached now
     */
    public static RedisConnections connect(String url, Duration commandTimeout, boolean failFastWhenDisconnected) {
        return connect(url, commandTimeout, failFastWhenDisconnected, ClientResources.builder().reconnectDelay(RECONNECT_DELAY).build());
    }

    /**
     * As {@link #connect(String, Duration, boolean)}, and records every command's latency in {@code registry}
     * ({@code lettuce.command.completion} and {@code .firstresponse}, by command and Redis node).
     */
    public static RedisConnections connect(String url, Duration commandTimeout, boolean failFastWhenDisconnected,
                                           MeterRegistry registry) {
        return connect(url, commandTimeout, failFastWhenDisconnected, resources(registry));
    }

    /**
     * The resources {@link #connect(String, Duration, boolean, MeterRegistry)} uses: this class's reconnect delay, and
     * every command's latency recorded in {@code registry}. {@link ClientResources#mutate()} derives resources that
     * share them (timer, threads, recorder); the caller shuts these down after every client that uses them.
     */
    public static ClientResources resources(MeterRegistry registry) {
        // Buckets, not client-side percentiles: they aggregate across instances and cost less per command. From
        // 0.1 ms, because Redis answers most commands faster than the default lowest bucket.
        MicrometerOptions options = MicrometerOptions.builder().histogram(true).targetPercentiles(new double[0])
                .minLatency(Duration.ofNanos(100_000)).maxLatency(Duration.ofSeconds(10)).build();
        return ClientResources.builder().reconnectDelay(RECONNECT_DELAY)
                .commandLatencyRecorder(new MicrometerCommandLatencyRecorder(registry, options)).build();
    }

    /**
     * As {@link #connect(String, Duration, boolean)} on {@code resources}, which the connections shut down when they
     * close (components they share with other resources, as {@link ClientResources#mutate()} gives, stay up).
     */
    public static RedisConnections connect(String url, Duration commandTimeout, boolean failFastWhenDisconnected,
                                           ClientResources resources) {
        return connect(RedisEndpoint.of(url), commandTimeout, failFastWhenDisconnected, resources);
    }

    /** As {@link #connect(String, Duration, boolean)}, with the endpoint's credentials and TLS. */
    public static RedisConnections connect(RedisEndpoint endpoint, Duration commandTimeout, boolean failFastWhenDisconnected) {
        return connect(endpoint, commandTimeout, failFastWhenDisconnected, ClientResources.builder().reconnectDelay(RECONNECT_DELAY).build());
    }

    /** As {@link #connect(String, Duration, boolean, MeterRegistry)}, with the endpoint's credentials and TLS. */
    public static RedisConnections connect(RedisEndpoint endpoint, Duration commandTimeout, boolean failFastWhenDisconnected,
                                           MeterRegistry registry) {
        return connect(endpoint, commandTimeout, failFastWhenDisconnected, resources(registry));
    }

    /** As {@link #connect(String, Duration, boolean, ClientResources)}, with the endpoint's credentials and TLS. */
    public static RedisConnections connect(RedisEndpoint endpoint, Duration commandTimeout, boolean failFastWhenDisconnected,
                                           ClientResources resources) {
        ClientOptions.DisconnectedBehavior whenDown = failFastWhenDisconnected
                ? ClientOptions.DisconnectedBehavior.REJECT_COMMANDS : ClientOptions.DisconnectedBehavior.DEFAULT;
        SocketOptions socket = SocketOptions.builder().connectTimeout(commandTimeout).keepAlive(true).build();
        TimeoutOptions timeouts = TimeoutOptions.enabled(commandTimeout);
        SslOptions ssl = endpoint.sslOptions().orElseGet(() -> SslOptions.builder().build());
        ClientOptions pubSubOptions = pubSubOptions(socket, timeouts, ssl);
        if (endpoint.isCluster()) {
            // Lettuce gives the nodes it learns from the cluster the first seed's credentials and TLS.
            RedisClusterClient client = RedisClusterClient.create(resources, endpoint.seeds());
            // Follow failovers and reshards: refresh the slot map on MOVED/ASK and every 30 s.
            ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
                    .enableAllAdaptiveRefreshTriggers().enablePeriodicRefresh(Duration.ofSeconds(30)).build();
            client.setOptions(ClusterClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts).sslOptions(ssl)
                    .disconnectedBehavior(whenDown).topologyRefreshOptions(refresh).build());
            return new RedisConnections(resources, client, endpoint, pubSubOptions);
        }
        RedisClient client = RedisClient.create(resources, endpoint.seeds().getFirst());
        client.setOptions(ClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts).sslOptions(ssl)
                .disconnectedBehavior(whenDown).build());
        return new RedisConnections(resources, client, endpoint, pubSubOptions);
    }

    /**
     * Pub/Sub connections do not reconnect by themselves: messages published while one was down are lost, so its
     * subscriber must learn that it broke (and start over from a fresh read) rather than resume as if nothing happened.
     */
    private static ClientOptions pubSubOptions(SocketOptions socket, TimeoutOptions timeouts, SslOptions ssl) {
        return ClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts).sslOptions(ssl).autoReconnect(false)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build();
    }

    /** Whether {@code url} names a Redis Cluster rather than a standalone Redis. */
    public static boolean isCluster(String url) {
        return RedisEndpoint.of(url).isCluster();
    }

    /** The process-wide shared connection (thread-safe, multiplexed). */
    public Connection shared() {
        return shared;
    }

    /** A new connection for one writer that flushes commands itself; the caller closes it. */
    public Connection open() {
        if (cluster) {
            StatefulRedisClusterConnection<String, String> connection = ((RedisClusterClient) client).connect();
            connectToEveryMaster(connection);
            return new Connection(connection, connection.async(), connection.sync());
        }
        StatefulRedisConnection<String, String> connection = ((RedisClient) client).connect();
        return new Connection(connection, connection.async(), connection.sync());
    }

    /**
     * Opens the per-master connections now instead of on the first command for each master: Lettuce rejects a command
     * that waits for a node connection still being established when REJECT_COMMANDS is set (lettuce#3747), which made
     * the first read routed to each master a 503. A master unreachable now is connected to later, on demand.
     */
    private static void connectToEveryMaster(StatefulRedisClusterConnection<?, ?> connection) {
        CompletableFuture<?>[] connecting = connection.getPartitions().stream()
                .filter(node -> !node.hasNoSlots())
                .map(node -> connection.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort()))
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(connecting).join(); // each attempt is bounded by the connect timeout
        } catch (CompletionException e) {
            // Not fatal: the command path connects to that master itself, and fails fast while it cannot.
        }
    }

    /**
     * The address of the node that serves {@code channel} as a sharded Pub/Sub channel: the server itself when
     * standalone, on a cluster the master of the channel's slot (a shard channel hashes to a slot as a key does), with
     * the configured credentials and TLS, which the cluster's own node addresses lack.
     */
    public RedisURI pubSubNode(String channel) {
        if (!cluster) return endpoint.seeds().getFirst();
        RedisClusterNode node = ((RedisClusterClient) client).getPartitions().getMasterBySlot(SlotHash.getSlot(channel));
        if (node == null) throw new RedisConnectionException("no master serves the slot of " + channel);
        return endpoint.node(node.getUri().getHost(), node.getUri().getPort());
    }

    /** A new Pub/Sub connection to {@code node} (see {@link #pubSubNode}) that does not reconnect; the caller closes it. */
    public StatefulRedisPubSubConnection<String, String> connectPubSub(RedisURI node) {
        RedisClient pubSub;
        synchronized (this) {
            if (pubSubClient == null) {
                pubSubClient = RedisClient.create(resources);
                pubSubClient.setOptions(pubSubOptions);
            }
            pubSub = pubSubClient;
        }
        // Connecting blocks: outside the monitor, which would pin a virtual thread on Java 21.
        return pubSub.connectPubSub(StringCodec.UTF8, node);
    }

    /** A new byte-array connection for one pipelined writer; the caller closes it. */
    public BinaryConnection openBinary() {
        if (cluster) {
            StatefulRedisClusterConnection<byte[], byte[]> connection = ((RedisClusterClient) client).connect(ByteArrayCodec.INSTANCE);
            connectToEveryMaster(connection);
            return new BinaryConnection(connection, connection.async(), connection.sync());
        }
        StatefulRedisConnection<byte[], byte[]> connection = ((RedisClient) client).connect(ByteArrayCodec.INSTANCE);
        return new BinaryConnection(connection, connection.async(), connection.sync());
    }

    /**
     * Calls {@code batch} with every key matching {@code pattern}, one SCAN reply at a time, so memory does not grow
     * with the keyspace. On Redis Cluster each master is scanned in turn (a key lives on exactly one master); a reshard
     * while it runs can make it miss or repeat keys that move. SCAN, never KEYS: each call blocks Redis only briefly.
     *
     * @param count the COUNT hint: roughly how many keys Redis visits per call
     */
    public void scan(String pattern, int count, Consumer<List<String>> batch) {
        ScanArgs args = ScanArgs.Builder.matches(pattern).limit(count);
        if (!cluster) {
            scan(shared.sync(), args, batch);
            return;
        }
        StatefulRedisClusterConnection<String, String> connection = (StatefulRedisClusterConnection<String, String>) shared.stateful();
        for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.hasNoSlots()) {
                scan(connection.getConnection(node.getNodeId()).sync(), args, batch);
            }
        }
    }

    private static void scan(RedisKeyCommands<String, String> redis, ScanArgs args, Consumer<List<String>> batch) {
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> reply = redis.scan(cursor, args);
            if (!reply.getKeys().isEmpty()) batch.accept(reply.getKeys());
            cursor = reply;
        } while (!cursor.isFinished());
    }

    @Override
    public void close() {
        shared.close();
        synchronized (this) {
            if (pubSubClient != null) pubSubClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        // Resources handed to a client are not the client's to shut down.
        resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
