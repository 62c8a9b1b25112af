package io.readmark.processor.commit;

import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.readmark.processor.ProcessorConfig;
import io.readmark.store.redis.RedisConnections;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares {@code READMARK_REDIS_WAIT_REPLICAS} with the replicas Redis has at start, so that an operator learns of a
 * mismatch from the log rather than from a failover: replicas with no wait for them (a failover can lose
 * acknowledged writes), or a wait for more replicas than a master has (its writers wait until they exist).
 * The default is no wait, as a wait for a replica that does not exist never ends.
 */
public final class ReplicaSettingCheck {

    private static final Pattern CONNECTED_REPLICAS = Pattern.compile("connected_slaves:(\\d+)");

    private ReplicaSettingCheck() {
    }

    /** The warning to log, if the setting does not fit the replicas Redis reports now (the fewest of any master). */
    public static Optional<String> warning(RedisConnections redis, int waitReplicas) {
        int replicas;
        try {
            replicas = fewestReplicas(redis.shared());
        } catch (RedisException e) {
            return Optional.empty(); // Redis not answering now is reported by the writers themselves
        }
        if (replicas > 0 && waitReplicas == 0) {
            return Optional.of("Redis masters have replicas but " + ProcessorConfig.WAIT_REPLICAS + " is 0: a failover can"
                    + " lose writes whose offsets were committed; set it to 1");
        }
        if (waitReplicas > replicas) {
            return Optional.of(ProcessorConfig.WAIT_REPLICAS + " is " + waitReplicas + " but a Redis master has " + replicas
                    + " replicas: writes to it wait until it has enough");
        }
        return Optional.empty();
    }

    private static int fewestReplicas(RedisConnections.Connection shared) {
        if (!(shared.stateful() instanceof StatefulRedisClusterConnection<String, String> cluster)) {
            Matcher replicas = CONNECTED_REPLICAS.matcher(shared.sync().info("replication"));
            return replicas.find() ? Integer.parseInt(replicas.group(1)) : 0;
        }
        int fewest = Integer.MAX_VALUE;
        for (RedisClusterNode master : cluster.getPartitions()) {
            if (!master.is(RedisClusterNode.NodeFlag.UPSTREAM) || master.hasNoSlots()) continue;
            long replicas = cluster.getPartitions().stream()
                    .filter(node -> master.getNodeId().equals(node.getSlaveOf()) && !node.is(RedisClusterNode.NodeFlag.FAIL))
                    .count();
            fewest = Math.min(fewest, (int) replicas);
        }
        return fewest == Integer.MAX_VALUE ? 0 : fewest;
    }
}
