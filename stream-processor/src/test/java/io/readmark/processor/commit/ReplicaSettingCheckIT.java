package io.readmark.processor.commit;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up warning names a replica setting that does not fit the replicas Redis has, standalone or Cluster. */
class ReplicaSettingCheckIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void shouldWarnOfReplicasNotWaitedForAndOfWaitsForReplicasThatAreNot() {
        try (EmbeddedRedis master = EmbeddedRedis.start(0);
             RedisConnections alone = RedisConnections.connect(master.url(), TIMEOUT, false)) {
            assertThat(ReplicaSettingCheck.warning(alone, 0)).isEmpty();
            assertThat(ReplicaSettingCheck.warning(alone, 1)).hasValueSatisfying(warning ->
                    assertThat(warning).contains("READMARK_REDIS_WAIT_REPLICAS is 1 but a Redis master has 0 replicas"));

            try (EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master)) {
                assertThat(ReplicaSettingCheck.warning(alone, 1)).isEmpty();
                assertThat(ReplicaSettingCheck.warning(alone, 0)).hasValueSatisfying(warning ->
                        assertThat(warning).contains("have replicas but READMARK_REDIS_WAIT_REPLICAS is 0"));
            }
        }
    }

    @Test
    void shouldCountTheReplicasOfEveryClusterMaster() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.startWithReplicas(3);
             RedisConnections redis = RedisConnections.connect(cluster.url(), TIMEOUT, false)) {
            assertThat(ReplicaSettingCheck.warning(redis, 1)).isEmpty();
            assertThat(ReplicaSettingCheck.warning(redis, 0)).isPresent();
            assertThat(ReplicaSettingCheck.warning(redis, 2)).hasValueSatisfying(warning ->
                    assertThat(warning).contains("but a Redis master has 1 replicas"));
        }
    }
}
