package io.readmark.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

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
 * Clients on virtual threads posting to a producer API without pause, each event with an eventId of its own, and
 * what each request was answered; then the check that every event the API acknowledged is in Kafka where it said,
 * exactly once.
 */
final class IngestLoad {

    private static final int BATCH_SIZE = 20;
    /** The status of a request that got no answer (timed out, connection lost). */
    private static final int NO_ANSWER = -1;

    private final String baseUrl;
    private final int singleEventClients;
    private final int batchClients;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Queue<Call> calls = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> clients = new ArrayList<>();

    /** Clients posting one event at a time and clients posting batches, to the producer API at {@code baseUrl}. */
    IngestLoad(String baseUrl, int singleEventClients, int batchClients) {
        this.baseUrl = baseUrl;
        this.singleEventClients = singleEventClients;
        this.batchClients = batchClients;
    }

    /**
     * Starts the clients and returns once the API acknowledged a hundred events, so that a fault meets an API that is
     * serving, not one still loading its classes and Kafka's metadata.
     */
    void startServing() {
        start();
        await("the producer API serving").atMost(Duration.ofSeconds(60)).until(() -> acceptedEvents() >= 100);
    }

    void start() {
        for (int client = 0; client < singleEventClients + batchClients; client++) {
            int id = client;
            int size = client < singleEventClients ? 1 : BATCH_SIZE;
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
        String contentType = response.headers().firstValue("Content-Type").orElse(null);
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(response.body());
        } catch (Exception e) {
            body = null;
        }
        if (body == null || !body.isObject()) {
            // An answer that is no JSON document (a proxy's page, a cut body) acknowledged nothing: a failed call with
            // the status it had, rather than an exception that would lose that status.
            return new Call(started, ended, events, response.statusCode(), null, contentType, "not JSON: " + response.body(),
                    List.of());
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
                contentType,
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

    /**
     * Requires every request answered within {@code longest} (202/200 stored, or 503 with Retry-After and a problem),
     * and every acknowledged event in Kafka once, as {@link #assertStoredOnce}.
     */
    Audit assertAnsweredAndStoredOnce(Duration longest, String bootstrapServers, Topics topics) {
        assertAllAnsweredWithin(longest);
        return assertStoredOnce(bootstrapServers, topics);
    }

    /** Requires every request answered within {@code longest}: 202/200 stored, or 503 with Retry-After and a problem. */
    void assertAllAnsweredWithin(Duration longest) {
        assertThat(calls()).allSatisfy(call -> {
            assertThat(call.status()).as(call.toString()).isIn(200, 202, 503);
            assertThat(call.latency()).as(call.toString()).isLessThanOrEqualTo(longest);
            if (call.status() == 503) {
                assertThat(call.retryAfter()).as(call.toString()).isEqualTo("1");
                assertThat(call.contentType()).as(call.toString()).isEqualTo("application/problem+json");
                assertThat(call.problemTitle()).as(call.toString()).isEqualTo("Kafka unavailable");
            }
            if (call.status() == 200 && call.accepted().size() < call.events()) {
                assertThat(call.retryAfter()).as("a batch with unavailable events: %s", call).isEqualTo("1");
            }
        });
    }

    /**
     * Requires every acknowledged event in Kafka, where the API said it stored it, exactly once, and no event twice.
     *
     * @return how many events were acknowledged, and how many are in Kafka (a timed-out request's may be stored)
     */
    Audit assertStoredOnce(String bootstrapServers, Topics topics) {
        Map<String, List<Stored>> inKafka = readBack(bootstrapServers, topics);
        List<Stored> acknowledged = calls().stream().flatMap(call -> call.accepted().stream()).toList();
        assertThat(acknowledged).allSatisfy(ack ->
                assertThat(inKafka.get(ack.eventId())).as("copies of acknowledged %s in Kafka", ack).containsExactly(ack));
        assertThat(inKafka.values()).as("no event stored twice").allSatisfy(copies -> assertThat(copies).hasSize(1));
        return new Audit(acknowledged.size(), inKafka.size());
    }

    /** Every event on the three event topics by eventId, with where it is stored. */
    private static Map<String, List<Stored>> readBack(String bootstrapServers, Topics topics) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(topics.blogEvents().name(), topics.followEvents().name(), topics.readEvents().name())) {
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

    /** Events the API acknowledged, and events found in Kafka. */
    record Audit(int acknowledged, int stored) {
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

}
