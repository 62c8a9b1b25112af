package io.readmark.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.schemas.Json;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

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
    private static final int BATCH_SIZE = 20;
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
            Load load;
            long stopping;
            long down;
            long starting;
            long up;
            try (ProducerApi api = ProducerApi.start(ProducerApiConfig.onLoopback(kafka.bootstrapServers(), TOPICS).withAckTimeout(ACK_TIMEOUT))) {
                // Given clients posting single events and batches without pause
                load = new Load("http://127.0.0.1:" + api.port());
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

            List<Call> calls = load.calls();
            // Every request was answered: 202/200 stored, 503 with Retry-After and a problem, nothing else, never late
            assertThat(calls).allSatisfy(call -> {
                assertThat(call.status()).as(call.toString()).isIn(200, 202, 503);
                assertThat(call.latency()).as(call.toString()).isLessThanOrEqualTo(LONGEST_ANSWER);
                if (call.status() == 503) {
                    assertThat(call.retryAfter()).as(call.toString()).isEqualTo("1");
                    assertThat(call.contentType()).as(call.toString()).isEqualTo("application/problem+json");
                    assertThat(call.problemTitle()).as(call.toString()).isEqualTo("Kafka unavailable");
                }
                if (call.status() == 200 && call.accepted().size() < call.events()) {
                    assertThat(call.retryAfter()).as("a batch with unavailable events: %s", call).isEqualTo("1");
                }
            });
            // While the broker was down nothing was acknowledged, and every request was answered 503
            List<Call> duringOutage = calls.stream().filter(call -> call.started() > down && call.ended() < starting).toList();
            assertThat(duringOutage).isNotEmpty().allSatisfy(call -> assertThat(call.status()).as(call.toString()).isEqualTo(503));

            // And every acknowledged event is in Kafka, where the API said it was stored, exactly once
            Map<String, List<Stored>> inKafka = readBack(kafka.bootstrapServers());
            List<Stored> acknowledged = calls.stream().flatMap(call -> call.accepted().stream()).toList();
            assertThat(acknowledged).allSatisfy(ack ->
                    assertThat(inKafka.get(ack.eventId())).as("copies of acknowledged %s in Kafka", ack).containsExactly(ack));
            assertThat(inKafka.values()).as("no event stored twice").allSatisfy(copies -> assertThat(copies).hasSize(1));

            Call firstAfter = calls.stream().filter(call -> call.started() > up && call.allAccepted())
                    .min((a, b) -> Long.compare(a.ended(), b.ended())).orElseThrow();
            System.out.printf("broker %s: %d requests (%d events), %d events acknowledged, %d answered 503; "
                            + "outage %d ms (stop %d ms, start %d ms): %d requests, all 503, slowest %d ms; "
                            + "slowest request overall %d ms; first acknowledgement %d ms after the broker was back; "
                            + "%d unacknowledged events stored anyway%n",
                    outage, calls.size(), calls.stream().mapToInt(Call::events).sum(), acknowledged.size(),
                    calls.stream().filter(call -> call.status() == 503).count(),
                    millis(up - stopping), millis(down - stopping), millis(up - starting),
                    duringOutage.size(), duringOutage.stream().mapToLong(call -> call.latency().toMillis()).max().orElse(0),
                    calls.stream().mapToLong(call -> call.latency().toMillis()).max().orElse(0),
                    millis(firstAfter.ended() - up), inKafka.size() - acknowledged.size());
        }
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }

    /** Every event on the three event topics by eventId, with where it is stored. */
    private static Map<String, List<Stored>> readBack(String bootstrapServers) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(TOPICS.blogEvents().name(), TOPICS.followEvents().name(), TOPICS.readEvents().name())) {
                for (PartitionInfo partition : consumer.partitionsFor(topic)) {
                    partitions.add(new TopicPartition(topic, partition.partition()));
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<String, List<Stored>> stored = new HashMap<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    String eventId = Json.MAPPER.readTree(record.value()).get("eventId").asText();
                    stored.computeIfAbsent(eventId, id -> new ArrayList<>())
                            .add(new Stored(eventId, record.topic(), record.partition(), record.offset()));
                }
                return ends.entrySet().stream().allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
            });
            return stored;
        }
    }

    /** Where an event is stored, as the API acknowledged it or as read back from Kafka. */
    record Stored(String eventId, String topic, int partition, long offset) {
    }

    /** One request and its answer. */
    record Call(long started, long ended, int events, int status, String retryAfter, String contentType, String problemTitle,
                List<Stored> accepted) {

        Duration latency() {
            return Duration.ofNanos(ended - started);
        }

        boolean allAccepted() {
            return accepted.size() == events;
        }

        @Override
        public String toString() {
            return events + " event(s): " + status + (problemTitle == null ? "" : " " + problemTitle) + " in "
                    + latency().toMillis() + " ms, " + accepted.size() + " accepted";
        }
    }

    /** Clients on virtual threads posting without pause, each event with an eventId of its own. */
    private static final class Load {

        private final String baseUrl;
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private final Queue<Call> calls = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> clients = new ArrayList<>();
        /** The status of a request that got no answer (timed out, connection lost). */
        private static final int NO_ANSWER = -1;

        Load(String baseUrl) {
            this.baseUrl = baseUrl;
        }

        void start() {
            for (int client = 0; client < SINGLE_EVENT_CLIENTS + BATCH_CLIENTS; client++) {
                int id = client;
                int size = client < SINGLE_EVENT_CLIENTS ? 1 : BATCH_SIZE;
                clients.add(Thread.ofVirtual().name("load-" + id).start(() -> post(id, size)));
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread client : clients) client.join();
        }

        List<Call> calls() {
            return List.copyOf(calls);
        }

        long count(Predicate<Call> which) {
            return calls.stream().filter(which).count();
        }

        long acceptedEvents() {
            return calls.stream().mapToLong(call -> call.accepted().size()).sum();
        }

        private void post(int client, int size) {
            long sequence = 0;
            while (running.get()) {
                List<String> events = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    long n = ++sequence;
                    events.add(event("c" + client + "-" + n, n));
                }
                boolean batch = size > 1;
                HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + (batch ? "/v1/events:batch" : "/v1/events")))
                        .header("Content-Type", "application/json")
                        // Far above any answer the API may give: a request that needs it has hung.
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofString(batch ? "[" + String.join(",", events) + "]" : events.get(0)))
                        .build();
                long started = System.nanoTime();
                try {
                    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                    calls.add(call(started, System.nanoTime(), size, response));
                } catch (Exception e) {
                    calls.add(new Call(started, System.nanoTime(), size, NO_ANSWER, null, null, e.toString(), List.of()));
                }
            }
        }

        private static Call call(long started, long ended, int events, HttpResponse<String> response) {
            JsonNode body;
            try {
                body = Json.MAPPER.readTree(response.body());
            } catch (Exception e) {
                throw new IllegalStateException("not JSON: " + response.body(), e);
            }
            List<Stored> accepted = new ArrayList<>();
            if (response.statusCode() == 202) accepted.add(stored(body));
            if (response.statusCode() == 200) {
                for (JsonNode result : body.get("results")) {
                    if (result.get("status").asText().equals("accepted")) accepted.add(stored(result));
                }
            }
            return new Call(started, ended, events, response.statusCode(),
                    response.headers().firstValue("Retry-After").orElse(null),
                    response.headers().firstValue("Content-Type").orElse(null),
                    body.has("title") ? body.get("title").asText() : null, accepted);
        }

        private static Stored stored(JsonNode receipt) {
            return new Stored(receipt.get("eventId").asText(), receipt.get("topic").asText(),
                    receipt.get("partition").asInt(), receipt.get("offset").asLong());
        }

        /** Events of all three topics, so every topic's partitions lose their leader and get it back. */
        private static String event(String eventId, long n) {
            long id = 1 + n % 1_000;
            return switch ((int) (n % 3)) {
                case 0 -> """
                        {"type":"BlogPublished","eventId":"%s","blogId":%d,"authorId":%d,"publishedAt":"2026-01-01T12:00:00Z"}"""
                        .formatted(eventId, n, id);
                case 1 -> """
                        {"type":"Followed","eventId":"%s","followerId":%d,"authorId":%d,"at":"2026-01-01T12:00:00Z"}"""
                        .formatted(eventId, n, id);
                default -> """
                        {"type":"BlogRead","eventId":"%s","userId":%d,"blogId":%d,"authorId":%d,"readAt":"2026-01-01T12:00:00Z"}"""
                        .formatted(eventId, n, id, id);
            };
        }
    }
}
