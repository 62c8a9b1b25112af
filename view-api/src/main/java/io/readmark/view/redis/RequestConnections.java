package io.readmark.view.redis;

import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The Redis connections requests use. On a standalone Redis, one per event loop of the HTTP server, each on its
 * loop: a read started from a request's loop is written, answered and turned into the HTTP response on that one
 * thread, without waking another (the hand-offs cost ~10 % of the CPU per counts request); only while its own
 * connection is down (reconnecting) does a loop borrow another's, whose answer then hops back. On Redis Cluster, one
 * shared connection on Lettuce's own threads, as a cluster connection spans a channel per master and its topology
 * refreshes; a read's answer then hops back to the request's loop.
 */
public final class RequestConnections implements AutoCloseable {

    private final EventExecutor[] loops;
    private final RedisConnections[] clients;
    private final ClientResources shared;

    private RequestConnections(EventExecutor[] loops, RedisConnections[] clients, ClientResources shared) {
        this.loops = loops;
        this.clients = clients;
        this.shared = shared;
    }

    /**
     * Connects to Redis at {@code endpoint}, failing fast while disconnected, with every command's latency recorded in
     * {@code registry}.
     *
     * @param loops the HTTP server's event loops (NIO, as Lettuce's transport without native libraries)
     * @throws io.lettuce.core.RedisException when Redis cannot be reached now
     */
    static RequestConnections connect(RedisEndpoint endpoint, Duration commandTimeout, MeterRegistry registry, EventLoopGroup loops) {
        if (endpoint.isCluster()) {
            return new RequestConnections(new EventExecutor[0],
                    new RedisConnections[]{RedisConnections.connect(endpoint, commandTimeout, true, registry)}, null);
        }
        ClientResources shared = RedisConnections.resources(registry);
        List<EventExecutor> executors = new ArrayList<>();
        List<RedisConnections> clients = new ArrayList<>();
        try {
            for (EventExecutor loop : loops) {
                ClientResources pinned = shared.mutate()
                        .eventLoopGroupProvider(new PinnedEventLoop((EventLoop) loop)).nettyCustomizer(new ConsolidatedFlushes()).build();
                clients.add(RedisConnections.connect(endpoint, commandTimeout, true, pinned));
                executors.add(loop);
            }
        } catch (RuntimeException e) {
            clients.forEach(RedisConnections::close);
            shared.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            throw e;
        }
        return new RequestConnections(executors.toArray(EventExecutor[]::new), clients.toArray(RedisConnections[]::new), shared);
    }

    /**
     * The calling event loop's own connection; from any other thread (a blocking route's), any connection. Either way
     * a connected one while there is one: after an outage the connections reconnect one by one (each on its own
     * reconnect timer), and a request handed one still reconnecting would be refused at once (they fail fast while
     * disconnected) though the others already serve, so a client could get its 200 and then a 503 right after.
     */
    RedisConnections.Connection current() {
        if (clients.length == 1) return clients[0].shared(); // a cluster's one connection
        int first = -1;
        for (int i = 0; i < loops.length; i++) {
            if (loops[i].inEventLoop()) {
                first = i;
                break;
            }
        }
        if (first < 0) first = ThreadLocalRandom.current().nextInt(clients.length);
        for (int n = 0; n < clients.length; n++) {
            RedisConnections.Connection candidate = clients[(first + n) % clients.length].shared();
            if (candidate.stateful().isOpen()) return candidate;
        }
        return clients[first].shared(); // none is connected: it fails fast, as it should
    }

    /** How many of the connections are not connected now: reconnecting after an outage, or never back. */
    int disconnected() {
        int down = 0;
        for (RedisConnections client : clients) {
            if (!client.shared().stateful().isOpen()) down++;
        }
        return down;
    }

    /** How many connections requests use: one per event loop, or a cluster's one. */
    static int countFor(RedisEndpoint endpoint, EventLoopGroup loops) {
        if (endpoint.isCluster()) return 1;
        int count = 0;
        for (EventExecutor ignored : loops) count++;
        return count;
    }

    /** A client for connections of their own, such as Pub/Sub: the first loop's (or the cluster's) client. */
    RedisConnections client() {
        return clients[0];
    }

    @Override
    public void close() {
        for (RedisConnections client : clients) client.close();
        if (shared != null) shared.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
