package io.readmark.reliability;

import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.schemas.Topics;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The producer API under continuous load while its Kafka broker goes down for 10 s — stopped, or its process SIGKILLed
 * — and comes back: no acknowledged event is lost or stored twice, every request during the outage is answered 503
 * within the ack timeout, and the API recovers by itself.
 */
class BrokerRestartIT {

    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(3);
    /** A request may take the ack timeout plus what it costs to answer. */
    private static final Duration LONGEST_ANSWER = ACK_TIMEOUT.plusSeconds(1);
    private static final Duration OUTAGE = Duration.ofSeconds(10);
    private static final Duration LOAD_BEFORE_AND_AFTER = Duration.ofSeconds(5);
    private static final int SINGLE_EVENT_CLIENTS = 8;
    private static final int BATCH_CLIENTS = 4;
        private static final Topics TOPICS = Topics.defaults();

    /** How the broker goes away: a controlled shutdown, or its process SIGKILLed with nothing flushed. */
    enum Outage {
        STOPPED, KILLED
    }

    @ParameterizedTest
    @EnumSource(Outage.class)
    void shouldLoseNoAcknowledgedEventAnswer503DuringTheOutageAndRecoverWithoutARestart(Outage outage) throws Exception {
        try (RestartableKafka kafka = RestartableKafka.launch()) {
            kafka.createTopics(Map.of(TOPICS.blogEvents().name(), 3, TOPICS.followEvents().name(), 3,
                    TOPICS.readEvents().name(), 3, TOPICS.deadLetters().name(), 1));
            IngestLoad load;
            long stopping;
            long down;
            long starting;
            long up;
            try (ProducerApi api = ProducerApi.start(ProducerApiConfig.onLoopback(kafka.bootstrapServers(), TOPICS).withAckTimeout(ACK_TIMEOUT))) {
                // Given clients posting single events and batches without pause
                load = new IngestLoad("http://127.0.0.1:" + api.port(), SINGLE_EVENT_CLIENTS, BATCH_CLIENTS);
                long loadStarted = System.nanoTime();
                load.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> load.acceptedEvents() >= 1_000
                        && System.nanoTime() - loadStarted >= LOAD_BEFORE_AND_AFTER.toNanos());

                // When the broker stops, or its process is killed, for 10 s while they go on
                stopping = System.nanoTime();
                if (outage == Outage.KILLED) kafka.kill(); else kafka.stop();
                down = System.nanoTime();
                await().atMost(OUTAGE.multipliedBy(3)).until(() -> System.nanoTime() - down >= OUTAGE.toNanos()
                        && load.count(call -> call.started() > down && call.status() == 503) >= 20);
                starting = System.nanoTime();
                kafka.start();
                up = System.nanoTime();

                // Then, with the same API, requests are acknowledged again
                await().atMost(Duration.ofSeconds(60)).until(() -> load.count(call -> call.started() > up && call.allAccepted()) >= 200
                        && System.nanoTime() - up >= LOAD_BEFORE_AND_AFTER.toNanos());
                load.stop();
            }

            List<IngestLoad.Call> calls = load.calls();
            // Every request was answered: 202/200 stored, 503 with Retry-After and a problem, nothing else, never late
            load.assertAllAnsweredWithin(LONGEST_ANSWER);
            // While the broker was down nothing was acknowledged, and every request was answered 503
            List<IngestLoad.Call> duringOutage = calls.stream().filter(call -> call.started() > down && call.ended() < starting).toList();
            assertThat(duringOutage).isNotEmpty().allSatisfy(call -> assertThat(call.status()).as(call.toString()).isEqualTo(503));

            // And every acknowledged event is in Kafka, where the API said it was stored, exactly once
            IngestLoad.Audit stored = load.assertStoredOnce(kafka.bootstrapServers(), TOPICS);

            IngestLoad.Call firstAfter = calls.stream().filter(call -> call.started() > up && call.allAccepted())
                    .min((a, b) -> Long.compare(a.ended(), b.ended())).orElseThrow();
            System.out.printf("broker %s: %d requests (%d events), %d events acknowledged, %d answered 503; "
                            + "outage %d ms (stop %d ms, start %d ms): %d requests, all 503, slowest %d ms; "
                            + "slowest request overall %d ms; first acknowledgement %d ms after the broker was back; "
                            + "%d unacknowledged events stored anyway%n",
                    outage, calls.size(), calls.stream().mapToInt(IngestLoad.Call::events).sum(), stored.acknowledged(),
                    calls.stream().filter(call -> call.status() == 503).count(),
                    millis(up - stopping), millis(down - stopping), millis(up - starting),
                    duringOutage.size(), duringOutage.stream().mapToLong(call -> call.latency().toMillis()).max().orElse(0),
                    calls.stream().mapToLong(call -> call.latency().toMillis()).max().orElse(0),
                    millis(firstAfter.ended() - up), stored.stored() - stored.acknowledged());
        }
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }
}
