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
import java.util.Map;

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

    @Test
    void shouldLoseNothingWhenTheNetworkToKafkaStallsAndIsCut() throws Exception {
        int proxyPort = LocalPorts.freePort();
        try (EmbeddedKafka kafka = EmbeddedKafka.startBehindProxy(proxyPort);
             TcpProxy proxy = TcpProxy.start(proxyPort, kafka.port());
             EmbeddedRedis redis = EmbeddedRedis.start(0);
             Harness harness = Scenario.on("kafka-network", "localhost:" + proxy.port(), redis.url(), null)) {
            Topics ingest = RunNames.random("ingest").topics();
            kafka.createTopics(Map.of(ingest.blogEvents().name(), 3, ingest.followEvents().name(), 3,
                    ingest.readEvents().name(), 3));
            harness.startProcessor("processor");
            try (PushWatch push = Scenario.watchStreams(harness, redis.url());
                 ProducerApi api = ProducerApi.start(ProducerApiConfig.onLoopback("localhost:" + proxy.port(), ingest)
                         .withAckTimeout(ACK_TIMEOUT))) {
                // Given the workload, a processor and producer-API clients, all talking to Kafka through the proxy
                IngestLoad load = new IngestLoad("http://127.0.0.1:" + api.port(), 1, 1);
                WorkloadRunner workload = Scenario.startBusy(harness, load);

                // When the network stalls for seconds, then is cut for seconds, the load going on
                proxy.stall();
                Scenario.letLast(FAULT, since -> load.count(call -> call.started() > since && call.status() == 503) > 0);
                proxy.heal();
                Scenario.awaitMoreEvents(workload, 300);
                proxy.cut();
                Scenario.letLast(FAULT, since -> load.count(call -> call.started() > since && call.status() == 503) > 0);
                proxy.heal();
                long healed = System.nanoTime();
                Scenario.awaitMoreEvents(workload, 300);
                await("the producer API acknowledges again").atMost(Duration.ofSeconds(30))
                        .until(() -> load.count(call -> call.started() > healed && call.allAccepted()) >= 20);
                load.stop();

                // Then nothing is lost, extra or counted twice, every last push is exact, every acknowledged event stored once
                Scenario.stopDrainAndCheck(harness, workload, push);
                IngestLoad.Audit stored = load.assertAnsweredAndStoredOnce(ACK_TIMEOUT.plusSeconds(1),
                        kafka.internalBootstrapServers(), ingest);
                System.out.printf("kafka network: producer API %d requests, %d events acknowledged, %d answered 503; "
                                + "%d pushes on %d streams%n", load.calls().size(), stored.acknowledged(),
                        load.count(call -> call.status() == 503), push.pushes(), push.connections());
            }
        }
    }
}
