package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.KafkaTopics;
import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.schemas.Topics;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.awaitility.Awaitility.await;

/**
 * On a three-node Kafka cluster (replication factor 3, {@code min.insync.replicas} 2, no unclean leader election), the
 * node leading a partition of the blog-event topic is SIGKILLed under load — the workload's producer, a processor,
 * the producer API's clients and open unread streams — and starts again meanwhile. Another replica takes the
 * partition over; nothing acknowledged is lost: Redis ends exactly the model's state, every stream's last push equals it, and
 * every event the producer API acknowledged is in Kafka once.
 */
class KafkaLeaderFailoverIT {

    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration LEADER_MOVED = Duration.ofSeconds(30);
    private static final Duration BACK_IN_SYNC = Duration.ofSeconds(60);

    @Test
    void shouldLoseNothingWhenThePartitionLeaderOfAnInputTopicIsKilled() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             KafkaCluster kafka = KafkaCluster.launch(3);
             Harness harness = Scenario.on("leader-kill", kafka.bootstrapServers(), redis.url(), null)) {
            Topics ingest = RunNames.random("ingest").topics();
            KafkaTopics.createTopics(kafka.bootstrapServers(), Map.of(ingest.blogEvents().name(), 3,
                    ingest.followEvents().name(), 3, ingest.readEvents().name(), 3));
            harness.startProcessor("processor");
            try (PushWatch push = Scenario.watchStreams(harness, redis.url());
                 ProducerApi api = ProducerApi.start(ProducerApiConfig.onLoopback(kafka.bootstrapServers(), ingest)
                         .withAckTimeout(ACK_TIMEOUT))) {
                // Given a processor, clients of the producer API and streams, all busy
                IngestLoad load = new IngestLoad("http://127.0.0.1:" + api.port(), 1, 1);
                WorkloadRunner workload = Scenario.startBusy(harness, load);

                // When the node leading a blog-event partition is SIGKILLed, and starts again while the load goes on
                String topic = harness.pipeline().topics().blogEvents().name();
                int leader = kafka.leaderOf(topic, 0);
                kafka.node(leader).kill();
                await("another replica leads").atMost(LEADER_MOVED).until(() -> {
                    int now = kafka.leaderOf(topic, 0);
                    return now != -1 && now != leader;
                });
                long acceptedBefore = load.acceptedEvents();
                Scenario.awaitMoreEvents(workload, 300);
                await("the producer API acknowledging").atMost(LEADER_MOVED).until(() -> load.acceptedEvents() > acceptedBefore + 100);
                CompletableFuture<Void> restarted = CompletableFuture.runAsync(kafka.node(leader)::start);
                Scenario.awaitMoreEvents(workload, 300);
                load.stop();

                // Then nothing is lost, extra or counted twice, every last push is exact, every acknowledged event stored
                // once, and the old leader is back in sync
                Scenario.stopDrainAndCheck(harness, workload, push);
                IngestLoad.Audit stored = load.assertAnsweredAndStoredOnce(ACK_TIMEOUT.plusSeconds(1), kafka.bootstrapServers(),
                        ingest);
                restarted.join();
                kafka.awaitFullyInSync(List.of(topic, ingest.blogEvents().name()), BACK_IN_SYNC);
                System.out.printf("leader kill: node %d; producer API: %d requests, %d events acknowledged, %d answered 503; "
                                + "%d pushes on %d streams%n", leader, load.calls().size(), stored.acknowledged(),
                        load.count(call -> call.status() == 503), push.pushes(), push.connections());
            }
        }
    }
}
