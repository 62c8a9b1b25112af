package io.readmark.reliability;

import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.infra.EmbeddedRedisSentinel;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.ProcessorConfig;
import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis master SIGKILLed under load while its replica lags behind it, the replica promoted (by Redis Cluster itself,
 * or by Sentinel), the old master back later as its replica. The processor writes on, waiting for a replica of every
 * master before its offsets commit ({@code READMARK_REDIS_WAIT_REPLICAS=1}), and the state ends exactly the model's:
 * nothing the dead master acknowledged and its replica missed is lost. {@code -Dreadmark.failover.waitReplicas=0}
 * runs the same failovers without that wait, to show what it loses. A view API answers throughout, 200 or a 503 while
 * the master's keys have none, and serves from the promoted replica. On the cluster the master dies once under the
 * mixed load, once while a big-V post is being fanned out, between its chunks; under Sentinel, under the mixed load.
 */
class RedisFailoverIT {

    private static final String WAIT_REPLICAS = System.getProperty("readmark.failover.waitReplicas", "1");
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);
    /** Sentinel takes a restarted master back only once it has reported its role for a while. */
    private static final Duration REJOIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration FANOUT_WAIT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void shouldLoseNothingWhenAMasterDiesAndItsLaggingReplicaIsPromoted() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.startWithReplicas(3)) {
            failOver("redis-failover", new ClusterFailover(cluster), false);
        }
    }

    @Test
    void shouldLoseNothingWhenAMasterDiesDuringABigVFanOut() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.startWithReplicas(3)) {
            failOver("redis-failover-fanout", new ClusterFailover(cluster), true);
        }
    }

    @Test
    void shouldLoseNothingWhenSentinelFailsTheMasterOverToItsLaggingReplica() {
        try (EmbeddedRedisSentinel sentinel = EmbeddedRedisSentinel.start()) {
            failOver("redis-sentinel-failover", new SentinelFailover(sentinel), false);
        }
    }

    private static void failOver(String label, Failover redis, boolean duringFanout) {
        try (Harness harness = Scenario.on(label, TestInfrastructure.shared().kafkaBootstrapServers(), redis.url(), null);
             ViewApi view = ViewApi.start(ViewApiConfig.from(Settings.of(Map.of(ViewApiConfig.HOST, "127.0.0.1",
                     ViewApiConfig.PORT, "0", ViewApiConfig.MANAGEMENT_PORT, "0", ViewApiConfig.REDIS_URL, redis.url(),
                     ViewApiConfig.REDIS_PREFIX, harness.pipeline().names().redisPrefix(), AuthConfig.MODE, "off"), Map.of())))) {
            harness.startProcessor("processor", Map.of(ProcessorConfig.WAIT_REPLICAS, WAIT_REPLICAS));
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 400);

            if (duringFanout) assertThat(harness.awaitFanoutInFlight(FANOUT_WAIT)).as("a big-V post being fanned out").isTrue();
            redis.cutReplication();
            // Seconds of writes the replica misses, over several commit intervals: without the wait they are committed.
            Scenario.awaitMoreEvents(workload, 3 * Scenario.EVENTS_PER_SECOND);
            redis.killMaster();
            await("the replica promoted").atMost(FAILOVER_TIMEOUT).until(() -> {
                assertThat(unreadCountsStatuses(view)).as("the view API's answers while the master is dead").isSubsetOf(200, 503);
                return redis.replicaPromoted();
            });
            await("every user's counts served again").atMost(FAILOVER_TIMEOUT)
                    .until(() -> unreadCountsStatuses(view).stream().allMatch(status -> status == 200));
            redis.restartOldMaster();
            await("the old master back as a replica, in sync").atMost(REJOIN_TIMEOUT).until(redis::oldMasterSyncedReplica);

            Scenario.awaitMoreEvents(workload, 300);
            Scenario.stopDrainAndCheck(harness, workload);
        }
    }

    /** The steps of a failover, on the Redis deployments production runs with replicas. */
    private interface Failover {
        String url();

        /** Cuts the link of the replica to be promoted: it misses every write from now on. */
        void cutReplication();

        /** SIGKILLs the master whose replica {@link #cutReplication()} cut. */
        void killMaster();

        boolean replicaPromoted();

        void restartOldMaster();

        boolean oldMasterSyncedReplica();
    }

    /** The master of slot 0 of a three-master cluster, failed over by the cluster itself. */
    private record ClusterFailover(EmbeddedRedisCluster cluster, int master, int replica) implements Failover {
        ClusterFailover(EmbeddedRedisCluster cluster) {
            this(cluster, cluster.ports().getFirst(), cluster.replicaOf(cluster.ports().getFirst()));
        }

        public String url() {
            return cluster.url();
        }

        public void cutReplication() {
            cluster.cutReplication(replica);
        }

        public void killMaster() {
            cluster.kill(master);
        }

        public boolean replicaPromoted() {
            return cluster.isMaster(replica);
        }

        public void restartOldMaster() {
            cluster.restart(master);
        }

        public boolean oldMasterSyncedReplica() {
            return cluster.isSyncedReplica(master);
        }
    }

    /** A master and its replica, failed over by three sentinels. */
    private record SentinelFailover(EmbeddedRedisSentinel sentinel, EmbeddedRedis master, EmbeddedRedis replica) implements Failover {
        SentinelFailover(EmbeddedRedisSentinel sentinel) {
            this(sentinel, sentinel.master(), sentinel.replica());
        }

        public String url() {
            return sentinel.url();
        }

        public void cutReplication() {
            replica.cutReplication();
        }

        public void killMaster() {
            master.kill();
        }

        public boolean replicaPromoted() {
            return sentinel.isMaster(replica);
        }

        public void restartOldMaster() {
            master.restart();
        }

        public boolean oldMasterSyncedReplica() {
            return master.isSyncedReplica();
        }
    }

    /** The status of a counts read for users spread over the slots, so some are on the killed master's. */
    private static List<Integer> unreadCountsStatuses(ViewApi view) throws IOException, InterruptedException {
        List<Integer> statuses = new ArrayList<>();
        for (int user = 1; user <= 12; user++) {
            URI counts = URI.create("http://127.0.0.1:" + view.port() + "/v1/users/" + user + "/unread");
            statuses.add(HTTP.send(HttpRequest.newBuilder(counts).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        return statuses;
    }
}
