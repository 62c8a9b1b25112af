package io.readmark.store.unread;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.TcpProxy;
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
 * wait it returns at once, the write on the master only. A {@code WAIT} the client sends again after reconnecting, to
 * another server at the same address (as through Sentinel after a failover), vouches for nothing written before.
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
    void shouldNotTakeAWaitSentAgainToAnotherServerForTheWritesOfTheFirst() throws Exception {
        try (EmbeddedRedis first = EmbeddedRedis.start(0);
             EmbeddedRedis firstReplica = EmbeddedRedis.startReplicaOf(first);
             EmbeddedRedis second = EmbeddedRedis.start(0);
             EmbeddedRedis secondReplica = EmbeddedRedis.startReplicaOf(second);
             RedisConnections onFirst = RedisConnections.connect(first.url(), Duration.ofSeconds(5), false);
             RedisConnections onSecond = RedisConnections.connect(second.url(), Duration.ofSeconds(5), false)) {
            TcpProxy toFirst = TcpProxy.start(first.port());
            int address = toFirst.port();
            try (RedisConnections viaAddress = RedisConnections.connect("redis://127.0.0.1:" + address, Duration.ofSeconds(30), false)) {
                UnreadWriter writer = new UnreadWriter(viaAddress.openBinary(), KEYS, UnreadLimits.DEFAULTS, 1_000, applied -> { },
                        retried -> { }, 1);
                firstReplica.cutReplication();
                writer.deliver(101, 7, 1, 1_000);
                CompletableFuture<Void> acknowledged = CompletableFuture.runAsync(writer::awaitAcknowledged);
                await("the first server blocked in WAIT").atMost(Duration.ofSeconds(10))
                        .until(() -> onFirst.shared().sync().clientList().lines().anyMatch(client -> client.contains("flags=b")
                                && client.contains("cmd=wait")));

                toFirst.close();
                try (TcpProxy toSecond = TcpProxy.start(address, second.port())) {
                    acknowledged.get(30, TimeUnit.SECONDS);
                    assertThat(toSecond.port()).isEqualTo(address);
                    assertThat(onSecond.shared().sync().zscore(KEYS.z(101), "1")).as("sent again to the server that acknowledged it")
                            .isEqualTo(-1.0);
                }
                writer.close();
            }
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
