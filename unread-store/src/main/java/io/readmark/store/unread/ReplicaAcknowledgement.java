package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Confirms that writes a master acknowledged also reached {@code replicas} of its replicas, so that a failover to
 * one of them cannot lose them (Redis replicates asynchronously). Writes are acknowledged only if, on every master
 * written to since the last confirmation, the same client connection that carried them has {@code WAIT replicas}
 * answered with enough replicas, and, on a cluster, every written slot is still served by the master it was written
 * to. "The same connection" is its {@code CLIENT INFO} id and server address, taken before the first write and again
 * after the {@code WAIT}: a client that reconnects sends its unanswered commands again, and through Sentinel to the
 * new master, so a {@code WAIT} answered there must not vouch for writes only the old one had. On a cluster every
 * master serving slots is waited on, as a redirect can take a write to a master the slot map did not name. Anything
 * else is a failure the caller answers by sending the writes again. Used by the pipeline's one thread.
 */
final class ReplicaAcknowledgement {

    /**
     * How long a master waits for its replicas before answering with fewer: a connected replica answers far sooner,
     * and a missing one should become a retry round with its log line well within the command timeout.
     */
    static final Duration WAIT_TIMEOUT = Duration.ofSeconds(1);

    private final RedisConnections.BinaryConnection connection;
    private final StatefulRedisClusterConnection<byte[], byte[]> cluster;
    private final int replicas;
    /** Per master written to since the last confirmation ("" when standalone): its connection's identity then. */
    private final Map<String, CompletableFuture<String>> connectionBefore = new HashMap<>();
    /** On a cluster, per slot written to since the last confirmation: the id of the master it was sent to. */
    private final Map<Integer, String> masterOfSlot = new HashMap<>();

    /** Failed confirmation: the writes since the last one are to be sent again. */
    static final class NotReplicated extends RuntimeException {
        NotReplicated(String message) {
            super(message);
        }
    }

    @SuppressWarnings("unchecked")
    ReplicaAcknowledgement(RedisConnections.BinaryConnection connection, int replicas) {
        if (replicas < 0) throw new IllegalArgumentException("replicas must not be negative, was " + replicas);
        this.connection = connection;
        this.cluster = connection.stateful() instanceof StatefulRedisClusterConnection<?, ?> c
                ? (StatefulRedisClusterConnection<byte[], byte[]>) c : null;
        this.replicas = replicas;
    }

    boolean enabled() {
        return replicas > 0;
    }

    /** Called before {@code write} is sent: notes its master and takes the connection's identity before its first write. */
    void beforeSending(ScriptCall write) {
        if (!enabled()) return;
        if (cluster == null) {
            connectionBefore.computeIfAbsent("", master -> identity(connection::async));
            return;
        }
        if (connectionBefore.isEmpty()) {
            // A write can be redirected (ASK, or MOVED while the client's slot map is stale, as slots migrate) to a
            // master other than the one the map names: every master serving slots is bracketed and waited on.
            for (RedisClusterNode node : servingMasters()) {
                connectionBefore.computeIfAbsent(node.getNodeId(), id -> identity(() -> nodeCommands(node)));
            }
        }
        int slot = SlotHash.getSlot(write.keys()[0]);
        RedisClusterNode master = cluster.getPartitions().getMasterBySlot(slot);
        String id = master == null ? "?" : master.getNodeId();
        masterOfSlot.putIfAbsent(slot, id);
        if (master != null) connectionBefore.computeIfAbsent(id, node -> identity(() -> nodeCommands(master)));
    }

    /** The masters that serve slots now (a failed master left without slots is not waited on). */
    private List<RedisClusterNode> servingMasters() {
        List<RedisClusterNode> masters = new ArrayList<>();
        for (RedisClusterNode node : cluster.getPartitions()) {
            if ((node.is(RedisClusterNode.NodeFlag.UPSTREAM) || node.is(RedisClusterNode.NodeFlag.MASTER)) && !node.getSlots().isEmpty()) {
                masters.add(node);
            }
        }
        return masters;
    }

    /**
     * The connection's id and the server address it reached, {@code "id=7 laddr=127.0.0.1:6379"}: two servers may hand
     * out the same id, never at the same address. A master that cannot be reached now fails its confirmation rather
     * than the write.
     */
    private static CompletableFuture<String> identity(Supplier<RedisClusterAsyncCommands<byte[], byte[]>> commands) {
        try {
            return commands.get().clientInfo().toCompletableFuture().thenApply(ReplicaAcknowledgement::idAndAddress);
        } catch (RedisException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static String idAndAddress(String clientInfo) {
        StringBuilder identity = new StringBuilder();
        for (String field : clientInfo.strip().split(" ")) {
            if (field.startsWith("id=") || field.startsWith("laddr=")) identity.append(identity.isEmpty() ? "" : " ").append(field);
        }
        return identity.toString();
    }

    /**
     * Waits for the replicas of every master written to since the last call; the caller has flushed and every write
     * was acknowledged. Forgets those writes either way: on failure the caller sends them again, through
     * {@link #beforeSending}.
     *
     * @throws NotReplicated if a master failed over, a connection was re-established, or too few replicas answered
     */
    void confirm() {
        if (!enabled() || connectionBefore.isEmpty() && masterOfSlot.isEmpty()) return;
        try {
            if (cluster != null) {
                for (Map.Entry<Integer, String> written : masterOfSlot.entrySet()) {
                    RedisClusterNode now = cluster.getPartitions().getMasterBySlot(written.getKey());
                    if (now == null || !now.getNodeId().equals(written.getValue())) {
                        throw new NotReplicated("slot " + written.getKey() + " moved to another master since it was written");
                    }
                }
            }
            List<Check> checks = new ArrayList<>();
            if (cluster != null) {
                // A master that began serving slots since the first write may have taken redirected writes: waited
                // on too, though its connection's id was not taken before them.
                for (RedisClusterNode node : servingMasters()) {
                    if (connectionBefore.containsKey(node.getNodeId())) continue;
                    checks.add(check(node.getNodeId(), identity(() -> nodeCommands(node)), nodeCommands(node)));
                }
            }
            for (Map.Entry<String, CompletableFuture<String>> master : connectionBefore.entrySet()) {
                checks.add(check(master.getKey(), master.getValue(), cluster == null ? connection.async() : nodeCommands(master.getKey())));
            }
            connection.stateful().flushCommands();
            for (Check check : checks) check.verify(replicas);
        } catch (RedisException e) {
            throw new NotReplicated(e.toString());
        } finally {
            connectionBefore.clear();
            masterOfSlot.clear();
        }
    }

    /** The connection the cluster client routes a master's writes over (keyed by host and port, as its routing is). */
    private RedisClusterAsyncCommands<byte[], byte[]> nodeCommands(String nodeId) {
        RedisClusterNode master = cluster.getPartitions().getPartitionByNodeId(nodeId);
        if (master == null) throw new NotReplicated("master " + nodeId + " left the cluster since it was written to");
        return nodeCommands(master);
    }

    private RedisClusterAsyncCommands<byte[], byte[]> nodeCommands(RedisClusterNode master) {
        StatefulRedisConnection<byte[], byte[]> node = cluster.getConnection(master.getUri().getHost(), master.getUri().getPort());
        return node.async();
    }

    /** {@code WAIT}, then the connection's identity: pipelined in that order, so a {@code WAIT} sent again is seen. */
    private Check check(String master, CompletableFuture<String> before, RedisClusterAsyncCommands<byte[], byte[]> commands) {
        CompletableFuture<Long> acknowledged = commands.waitForReplication(replicas, WAIT_TIMEOUT.toMillis()).toCompletableFuture();
        return new Check(master, before, acknowledged, identity(() -> commands));
    }

    private record Check(String master, CompletableFuture<String> connectionBefore, CompletableFuture<Long> acknowledged,
                         CompletableFuture<String> connectionAfter) {

        void verify(int replicas) {
            String before = answer(connectionBefore);
            long replicated = answer(acknowledged);
            String after = answer(connectionAfter);
            if (!before.equals(after)) {
                throw new NotReplicated("the connection to " + name() + " was re-established since the writes");
            }
            if (replicated < replicas) {
                throw new NotReplicated(name() + ": WAIT " + replicas + " answered " + replicated + " within " + WAIT_TIMEOUT.toMillis() + " ms");
            }
        }

        private String name() {
            return master.isEmpty() ? "Redis" : "master " + master;
        }

        private <T> T answer(CompletableFuture<T> future) {
            try {
                // Bounded: WAIT by its timeout, every command by the connection's command timeout.
                return future.get();
            } catch (ExecutionException e) {
                throw new NotReplicated(name() + ": " + e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for replicas", e);
            }
        }
    }
}
