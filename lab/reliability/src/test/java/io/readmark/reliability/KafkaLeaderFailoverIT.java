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
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On a three-node Kafka cluster (replication factor 3, {@code min.insync.replicas} 2, no unclean leader election), the
 * node leading a partition of the blog-event topic is SIGKILLed under load — the workload's producer, a processor,
 * the producer API's clients and open unread streams — and comes back later. Another replica takes the partition
 * over; nothing acknowledged is lost: Redis ends exactly the model's state, every stream's last push equals it, and
 * every event the producer API acknowledged is in Kafka once.
 */
class KafkaLeaderFailoverIT {

    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration LEADER_MOVED = Duration.ofSeconds(30);
    private static final Duration BACK_IN_SYNC = Duration.ofSeconds(60);
    private static final Duration PUSH_SETTLE = Duration.ofSeconds(30);
    private static final int WATCH_EVERY_NTH_USER = 30;

    @Test
    void shouldLoseNothingWhenThePartitionLeaderOfAnInputTopicIsKilled() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             KafkaCluster kafka = KafkaCluster.launch(3);
             Harness harness = Scenario.on("leader-kill", kafka.bootstrapServers(), redis.url(), null)) {
            Topics ingest = RunNames.random("ingest").topics();
            KafkaTopics.createTopics(kafka.bootstrapServers(), Map.of(ingest.blogEvents().name(), 3,
                    ingest.followEvents().name(), 3, ingest.readEvents().name(), 3));
            harness.startProcessor("processor");
            List<Long> watched = LongStream.rangeClosed(1, 300).filter(user -> user % WATCH_EVERY_NTH_USER == 0).boxed().toList();
            try (PushWatch push = PushWatch.start(redis.url(), harness.pipeline().names().redisPrefix(), watched, harness.workDir());
                 ProducerApi api = ProducerApi.start(ProducerApiConfig.onLoopback(kafka.bootstrapServers(), ingest).withAckTimeout(ACK_TIMEOUT))) {
                // Given a processor, clients of the producer API and streams, all busy
                harness.awaitReady();
                harness.setUpWorkload();
                IngestLoad load = new IngestLoad("http://127.0.0.1:" + api.port(), 1, 1);
                load.start();
                WorkloadRunner workload = harness.startWorkload();
                Scenario.awaitMoreEvents(workload, 400);

                // When the node leading a blog-event partition is SIGKILLed, and comes back while the load goes on
                String topic = harness.pipeline().topics().blogEvents().name();
                int leader = kafka.leaderOf(topic, 0);
                kafka.node(leader).kill();
                await("another replica leads").atMost(LEADER_MOVED).until(() -> kafka.leaderOf(topic, 0) != leader);
                Scenario.awaitMoreEvents(workload, 300);
                kafka.node(leader).start();
                kafka.awaitFullyInSync(List.of(topic, ingest.blogEvents().name()), BACK_IN_SYNC);
                long acceptedBefore = load.acceptedEvents();
                Scenario.awaitMoreEvents(workload, 300);
                await("the producer API acknowledges again").atMost(LEADER_MOVED).until(() -> load.acceptedEvents() > acceptedBefore + 100);
                load.stop();

                // Then nothing is lost, extra or counted twice, every last push is exact, every acknowledged event stored once
                Scenario.stopDrainAndCheck(harness, workload);
                assertThat(push.awaitFinal(user -> PushWatch.Counts.expected(harness.expected(), user), PUSH_SETTLE))
                        .as("streams whose last push differs from the final state").isEmpty();
                load.assertAllAnsweredWithin(ACK_TIMEOUT.plusSeconds(1));
                IngestLoad.Audit stored = load.assertStoredOnce(kafka.bootstrapServers(), ingest);
                System.out.printf("leader kill: node %d; producer API: %d requests, %d events acknowledged, %d answered 503; "
                                + "%d pushes on %d streams%n", leader, load.calls().size(), stored.acknowledged(),
                        load.count(call -> call.status() == 503), push.pushes(), push.connections());
            }
        }
    }
}
