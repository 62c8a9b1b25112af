package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.ProcessorConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster master SIGKILLed under load while its replica lags behind it, the replica promoted by the cluster
 * itself, the old master back later as its replica. The processor writes on, waiting for a replica of every master
 * before its offsets commit ({@code READMARK_REDIS_WAIT_REPLICAS=1}), and the state ends exactly the model's: nothing
 * the dead master acknowledged and its replica missed is lost. {@code -Dreadmark.failover.waitReplicas=0} runs the
 * same failover without that wait, to show what it loses.
 */
class RedisFailoverIT {

    private static final String WAIT_REPLICAS = System.getProperty("readmark.failover.waitReplicas", "1");
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    @Test
    void shouldLoseNothingWhenAMasterDiesAndItsLaggingReplicaIsPromoted() {
        try (EmbeddedRedisCluster redis = EmbeddedRedisCluster.startWithReplicas(3);
             Harness harness = Scenario.on("redis-failover", TestInfrastructure.shared().kafkaBootstrapServers(), redis.url(), null)) {
            harness.startProcessor("processor", Map.of(ProcessorConfig.WAIT_REPLICAS, WAIT_REPLICAS));
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 500);

            int master = redis.ports().getFirst();
            int replica = redis.replicaOf(master);
            redis.cutReplication(replica);
            // Seconds of writes the replica misses, over several commit intervals: without the wait they are committed.
            Scenario.awaitMoreEvents(workload, 3 * Scenario.EVENTS_PER_SECOND);
            redis.kill(master);
            await("the replica promoted").atMost(FAILOVER_TIMEOUT).until(() -> redis.isMaster(replica));
            redis.restart(master);
            await("the old master back as a replica, in sync").atMost(FAILOVER_TIMEOUT).until(() -> redis.isSyncedReplica(master));

            Scenario.awaitMoreEvents(workload, 500);
            Scenario.stopDrainAndCheck(harness, workload);
        }
    }
}
