package io.readmark.store.unread;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A writer asked to wait for a replica acknowledges nothing its master's replica has not received: while the replica's
 * link is cut it keeps retrying (and reports it), and it returns once the replica has the writes again. Without the
 * wait it returns at once, the write on the master only.
 */
class ReplicaAcknowledgementIT {

    private static final Duration CUT = Duration.ofSeconds(3);
    private static final UnreadKeys KEYS = new UnreadKeys("replicas");

    @Test
    void shouldAcknowledgeOnlyWhatTheReplicaHas() throws Exception {
        try (EmbeddedRedis master = EmbeddedRedis.start(0);
             EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master);
             RedisConnections connections = RedisConnections.connect(master.url(), Duration.ofSeconds(5), false);
             RedisConnections onReplica = RedisConnections.connect(replica.url(), Duration.ofSeconds(5), false)) {
            AtomicLong retried = new AtomicLong();
            UnreadWriter writer = new UnreadWriter(connections.openBinary(), KEYS, UnreadLimits.DEFAULTS, 1_000, applied -> { },
                    retried::addAndGet, 1);
            writer.deliver(101, 7, 1, 1_000);
            writer.awaitAcknowledged();
            assertThat(onReplica.shared().sync().zscore(KEYS.z(101), "1")).as("on the replica once acknowledged").isEqualTo(-1.0);
            assertThat(retried).hasValue(0);

            replica.cutReplication();
            writer.deliver(101, 7, 2, 2_000);
            CompletableFuture<Void> acknowledged = CompletableFuture.runAsync(writer::awaitAcknowledged);
            await("not acknowledged while the replica misses it").during(CUT).atMost(CUT.plusSeconds(5)).until(() -> !acknowledged.isDone());
            assertThat(retried.get()).as("each round without the replica is reported as a retry").isPositive();

            replica.restoreReplication();
            acknowledged.get(30, TimeUnit.SECONDS);
            assertThat(onReplica.shared().sync().zscore(KEYS.z(101), "2")).as("on the replica once acknowledged").isEqualTo(-2.0);
            writer.close();
        }
    }

    @Test
    void shouldNotWaitForReplicasWhenNotAsked() {
        try (EmbeddedRedis master = EmbeddedRedis.start(0);
             EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master);
             RedisConnections connections = RedisConnections.connect(master.url(), Duration.ofSeconds(5), false);
             RedisConnections onReplica = RedisConnections.connect(replica.url(), Duration.ofSeconds(5), false)) {
            UnreadWriter writer = new UnreadWriter(connections.openBinary(), KEYS, UnreadLimits.DEFAULTS, 1_000, applied -> { },
                    retried -> { }, 0);
            replica.cutReplication();
            writer.deliver(101, 7, 2, 2_000);
            writer.awaitAcknowledged();
            assertThat(connections.shared().sync().zscore(KEYS.z(101), "2")).isEqualTo(-2.0);
            assertThat(onReplica.shared().sync().zscore(KEYS.z(101), "2")).as("acknowledged, yet not on the replica").isNull();
            writer.close();
        }
    }
}
