package io.readmark.reliability;

import io.readmark.infra.EmbeddedKafka;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.LocalPorts;
import io.readmark.infra.TcpProxy;
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
 * The network between Kafka and every client (the workload's producer, a processor, the producer API) stalled for
 * seconds under load (nothing passes, connections stay open) and then cut (every connection closed, new ones refused),
 * with unread streams open. The producer API answers 503 within its ack timeout meanwhile and stores each event it
 * acknowledged once; the processor carries on by itself, and afterwards nothing is lost, extra or double-counted and
 * every stream's last push is the final state.
 */
class KafkaNetworkFaultIT {

    private static final Duration FAULT = Duration.ofSeconds(5);
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration PUSH_SETTLE = Duration.ofSeconds(30);
    private static final List<Long> WATCHED = LongStream.rangeClosed(1, 300).filter(user -> user % 30 == 0).boxed().toList();

    @Test
    void shouldLoseNothingWhenTheNetworkToKafkaStallsAndIsCut() throws Exception {
        int proxyPort = LocalPorts.freePort();
        try (EmbeddedKafka kafka = EmbeddedKafka.startBehindProxy(proxyPort);
             TcpProxy proxy = TcpProxy.start(proxyPort, kafka.port());
             EmbeddedRedis redis = EmbeddedRedis.start(0);
             Harness harness = Scenario.on("kafka-network", "localhost:" + proxy.port(), redis.url(), null)) {
            Topics ingest = RunNames.random("ingest").topics();
            kafka.createTopics(Map.of(ingest.blogEvents().name(), 3, ingest.followEvents().name(), 3, ingest.readEvents().name(), 3));
            harness.startProcessor("processor");
            try (PushWatch push = PushWatch.start(redis.url(), harness.pipeline().names().redisPrefix(), WATCHED, harness.workDir());
                 ProducerApi api = ProducerApi.start(ProducerApiConfig.onLoopback("localhost:" + proxy.port(), ingest)
                         .withAckTimeout(ACK_TIMEOUT))) {
                // Given the workload, a processor and producer-API clients, all talking to Kafka through the proxy
                harness.awaitReady();
                harness.setUpWorkload();
                IngestLoad load = new IngestLoad("http://127.0.0.1:" + api.port(), 1, 1);
                load.start();
                WorkloadRunner workload = harness.startWorkload();
                Scenario.awaitMoreEvents(workload, 400);

                // When the network stalls for seconds, then is cut for seconds, the load going on
                proxy.stall();
                awaitFaultAnswered503(load);
                proxy.heal();
                Scenario.awaitMoreEvents(workload, 300);
                proxy.cut();
                awaitFaultAnswered503(load);
                proxy.heal();
                long healed = System.nanoTime();
                Scenario.awaitMoreEvents(workload, 300);
                await("the producer API acknowledges again").atMost(Duration.ofSeconds(30))
                        .until(() -> load.count(call -> call.started() > healed && call.allAccepted()) >= 20);
                load.stop();

                // Then nothing is lost, extra or counted twice, every last push is exact, every acknowledged event stored once
                Scenario.stopDrainAndCheck(harness, workload);
                assertThat(push.awaitFinal(user -> PushWatch.Counts.expected(harness.expected(), user), PUSH_SETTLE))
                        .as("streams whose last push differs from the final state").isEmpty();
                load.assertAllAnsweredWithin(ACK_TIMEOUT.plusSeconds(1));
                IngestLoad.Audit stored = load.assertStoredOnce(kafka.internalBootstrapServers(), ingest);
                System.out.printf("kafka network: producer API %d requests, %d events acknowledged, %d answered 503; "
                                + "%d pushes on %d streams%n", load.calls().size(), stored.acknowledged(),
                        load.count(call -> call.status() == 503), push.pushes(), push.connections());
            }
        }
    }

    /** Lets the fault last {@link #FAULT}, and until the producer API answered 503 during it. */
    private static void awaitFaultAnswered503(IngestLoad load) {
        long started = System.nanoTime();
        await().atMost(FAULT.multipliedBy(4)).until(() -> System.nanoTime() - started >= FAULT.toNanos()
                && load.count(call -> call.started() > started && call.status() == 503) > 0);
    }
}
