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
 * written to since the last confirmation, the same client connection that carried them (its {@code CLIENT ID}
 * before the first write and at the end agree: no reconnect in between) has {@code WAIT replicas} answered with
 * enough replicas, and, on a cluster, every written slot is still served by the master it was written to. On a
 * cluster every master serving slots is waited on, as a redirect can take a write to a master the slot map did not
 * name. Anything else is a failure the caller answers by sending the writes again. Used by the pipeline's one thread.
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
    /** Per master written to since the last confirmation ("" when standalone): its connection's client id then. */
    private final Map<String, CompletableFuture<Long>> clientIdBefore = new HashMap<>();
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

    /** Called before {@code write} is sent: notes its master and brackets the master's first write with CLIENT ID. */
    void beforeSending(ScriptCall write) {
        if (!enabled()) return;
        if (cluster == null) {
            clientIdBefore.computeIfAbsent("", master -> clientId(connection::async));
            return;
        }
        if (clientIdBefore.isEmpty()) {
            // A write can be redirected (ASK, or MOVED while the client's slot map is stale, as slots migrate) to a
            // master other than the one the map names: every master serving slots is bracketed and waited on.
            for (RedisClusterNode node : servingMasters()) {
                clientIdBefore.computeIfAbsent(node.getNodeId(), id -> clientId(() -> nodeCommands(node)));
            }
        }
        int slot = SlotHash.getSlot(write.keys()[0]);
        RedisClusterNode master = cluster.getPartitions().getMasterBySlot(slot);
        String id = master == null ? "?" : master.getNodeId();
        masterOfSlot.putIfAbsent(slot, id);
        if (master != null) clientIdBefore.computeIfAbsent(id, node -> clientId(() -> nodeCommands(master)));
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

    /** A master that cannot be reached now fails its confirmation rather than the write. */
    private static CompletableFuture<Long> clientId(Supplier<RedisClusterAsyncCommands<byte[], byte[]>> commands) {
        try {
            return commands.get().clientId().toCompletableFuture();
        } catch (RedisException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Waits for the replicas of every master written to since the last call; the caller has flushed and every write
     * was acknowledged. Forgets those writes either way: on failure the caller sends them again, through
     * {@link #beforeSending}.
     *
     * @throws NotReplicated if a master failed over, a connection was re-established, or too few replicas answered
     */
    void confirm() {
        if (!enabled() || clientIdBefore.isEmpty() && masterOfSlot.isEmpty()) return;
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
                    if (clientIdBefore.containsKey(node.getNodeId())) continue;
                    RedisClusterAsyncCommands<byte[], byte[]> commands = nodeCommands(node);
                    CompletableFuture<Long> id = commands.clientId().toCompletableFuture();
                    checks.add(new Check(node.getNodeId(), id, id,
                            commands.waitForReplication(replicas, WAIT_TIMEOUT.toMillis()).toCompletableFuture()));
                }
            }
            for (Map.Entry<String, CompletableFuture<Long>> master : clientIdBefore.entrySet()) {
                RedisClusterAsyncCommands<byte[], byte[]> commands = cluster == null ? connection.async() : nodeCommands(master.getKey());
                checks.add(new Check(master.getKey(), master.getValue(), commands.clientId().toCompletableFuture(),
                        commands.waitForReplication(replicas, WAIT_TIMEOUT.toMillis()).toCompletableFuture()));
            }
            connection.stateful().flushCommands();
            for (Check check : checks) check.verify(replicas);
        } catch (RedisException e) {
            throw new NotReplicated(e.toString());
        } finally {
            clientIdBefore.clear();
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

    private record Check(String master, CompletableFuture<Long> idBefore, CompletableFuture<Long> idAfter,
                         CompletableFuture<Long> acknowledged) {

        void verify(int replicas) {
            long before = answer(idBefore);
            long after = answer(idAfter);
            long replicated = answer(acknowledged);
            if (before != after) {
                throw new NotReplicated("the connection to " + name() + " was re-established since the writes");
            }
            if (replicated < replicas) {
                throw new NotReplicated(name() + ": WAIT " + replicas + " answered " + replicated + " within " + WAIT_TIMEOUT.toMillis() + " ms");
            }
        }

        private String name() {
            return master.isEmpty() ? "Redis" : "master " + master;
        }

        private long answer(CompletableFuture<Long> future) {
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
