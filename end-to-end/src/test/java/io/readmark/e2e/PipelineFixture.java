package io.readmark.e2e;

import io.readmark.launcher.LocalStack;
import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.config.KafkaClientSettings;
import io.readmark.common.config.Settings;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.Json;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.api.ThrowingConsumer;
import org.awaitility.core.ThrowingRunnable;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One whole pipeline (a {@link LocalStack} on the shared test Kafka and Redis, with its own topics, application id
 * and Redis prefix) plus the wire JSON of every event, two ways to produce it (the producer API over HTTP, or a
 * plain Kafka client for exact control of topic, key and order) and the view API's answers as plain values.
 */
final class PipelineFixture implements AutoCloseable {

    private static final Instant FOLLOWED_AT = Instant.parse("2026-01-01T09:00:00Z");

    /** One record as any client would write it: topic, key (the id the contract names) and wire JSON. */
    record WireEvent(String topic, String key, String json) {
    }

    /** {@code GET /v1/users/{u}/unread}: total and per-author counts. */
    record Counts(long total, Map<Long, Long> byAuthor) {
    }

    /** One page of {@code GET /v1/users/{u}/unread/{a}}: blog ids newest first, and the cursor to continue with. */
    record Page(List<Long> blogIds, String nextCursor) {
    }

    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(20);

    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicLong ids = new AtomicLong(1_000);
    private final AtomicLong eventIds = new AtomicLong();
    private final LocalStack stack;
    private final Settings settings;
    private final KafkaProducer<String, String> producer;
    private long lastTimestamp;

    private PipelineFixture(LocalStack stack, Settings settings) {
        this.stack = stack;
        this.settings = settings;
        this.producer = new KafkaProducer<>(KafkaClientSettings.from(settings).under(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 0)), new StringSerializer(), new StringSerializer());
    }

    static PipelineFixture start(String name) throws Exception {
        return start(name, Map.of());
    }

    /** A pipeline whose settings are the test defaults with {@code settings} on top. */
    static PipelineFixture start(String name, Map<String, String> settings) throws Exception {
        return start(name, TestInfrastructure.shared(), settings);
    }

    /** A pipeline on this Kafka and Redis, its settings the test defaults with {@code settings} on top. */
    static PipelineFixture start(String name, Infrastructure infra, Map<String, String> settings) throws Exception {
        String run = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        Settings effective = Settings.of(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", infra.kafkaBootstrapServers(),
                "REDIS_URL", infra.redisUrl(),
                "READMARK_REDIS_PREFIX", run,
                "READMARK_TOPIC_BLOG_EVENTS", "blog-events-" + run,
                "READMARK_TOPIC_FOLLOW_EVENTS", "follow-events-" + run,
                "READMARK_TOPIC_READ_EVENTS", "read-events-" + run,
                "READMARK_TOPIC_DLQ", "dlq-" + run,
                "PROCESSOR_APPLICATION_ID", run,
                "PRODUCER_API_PORT", "0",
                "VIEW_API_PORT", "0"), Map.of()).withOverrides(Map.of("READMARK_TOPIC_FANOUT", "fanout-" + run,
                        "READMARK_TOPIC_NOTICE_EVENTS", "notice-events-" + run))
                .withOverrides(settings);
        return new PipelineFixture(LocalStack.start(effective), effective);
    }

    LocalStack stack() {
        return stack;
    }

    /** The settings the pipeline was started with: its topics, prefix and application id, for commands run beside it. */
    Settings settings() {
        return settings;
    }

    /** A user, author or blog id no other test of this pipeline uses. */
    long newId() {
        return ids.incrementAndGet();
    }

    // ---- the wire contract ------------------------------------------------------------------------------------

    /** Followed at 09:00, before the tests' posts. */
    WireEvent followed(long followerId, long authorId) {
        return followed(followerId, authorId, FOLLOWED_AT);
    }

    /** A follow gets the posts published after {@code at}. */
    WireEvent followed(long followerId, long authorId, Instant at) {
        return follow("Followed", followerId, authorId, at);
    }

    WireEvent unfollowed(long followerId, long authorId) {
        return unfollowed(followerId, authorId, FOLLOWED_AT);
    }

    WireEvent unfollowed(long followerId, long authorId, Instant at) {
        return follow("Unfollowed", followerId, authorId, at);
    }

    private WireEvent follow(String type, long followerId, long authorId, Instant at) {
        return new WireEvent(stack.topics().followEvents().name(), Long.toString(authorId), """
                {"type":"%s","eventId":"%s","followerId":%d,"authorId":%d,"at":"%s"}"""
                .formatted(type, eventId(), followerId, authorId, at));
    }

    WireEvent published(long blogId, long authorId, Instant publishedAt) {
        return new WireEvent(stack.topics().blogEvents().name(), Long.toString(authorId), """
                {"type":"BlogPublished","eventId":"%s","blogId":%d,"authorId":%d,"publishedAt":"%s"}"""
                .formatted(eventId(), blogId, authorId, publishedAt));
    }

    WireEvent deleted(long blogId, long authorId, Instant deletedAt) {
        return new WireEvent(stack.topics().blogEvents().name(), Long.toString(authorId), """
                {"type":"BlogDeleted","eventId":"%s","blogId":%d,"authorId":%d,"deletedAt":"%s"}"""
                .formatted(eventId(), blogId, authorId, deletedAt));
    }

    WireEvent read(long userId, long blogId, long authorId, Instant readAt) {
        return new WireEvent(stack.topics().readEvents().name(), Long.toString(userId), """
                {"type":"BlogRead","eventId":"%s","userId":%d,"blogId":%d,"authorId":%d,"readAt":"%s"}"""
                .formatted(eventId(), userId, blogId, authorId, readAt));
    }

    /** A {@code BlogsRead} of the user: {@code blogAndAuthor} holds each blog's id, then its author's. */
    WireEvent blogsRead(long userId, Instant readAt, long... blogAndAuthor) {
        StringJoiner blogs = new StringJoiner(",", "[", "]");
        for (int i = 0; i < blogAndAuthor.length; i += 2) {
            blogs.add("{\"blogId\":%d,\"authorId\":%d}".formatted(blogAndAuthor[i], blogAndAuthor[i + 1]));
        }
        return new WireEvent(stack.topics().readEvents().name(), Long.toString(userId), """
                {"type":"BlogsRead","eventId":"%s","userId":%d,"blogs":%s,"readAt":"%s"}"""
                .formatted(eventId(), userId, blogs, readAt));
    }

    WireEvent inboxSeen(long userId, Instant seenAt) {
        return new WireEvent(stack.topics().readEvents().name(), Long.toString(userId), """
                {"type":"InboxSeen","eventId":"%s","userId":%d,"seenAt":"%s"}"""
                .formatted(eventId(), userId, seenAt));
    }

    WireEvent readAll(long userId, long authorId, Instant readAt) {
        return new WireEvent(stack.topics().readEvents().name(), Long.toString(userId), """
                {"type":"AuthorReadAll","eventId":"%s","userId":%d,"authorId":%d,"readAt":"%s"}"""
                .formatted(eventId(), userId, authorId, readAt));
    }

    /** A record on the author's blog-events partition that is not JSON at all: bound for the dead-letter topic. */
    WireEvent notJson(long authorId) {
        return new WireEvent(stack.topics().blogEvents().name(), Long.toString(authorId), "{not json");
    }

    private String eventId() {
        return "e-" + eventIds.incrementAndGet();
    }

    // ---- producing --------------------------------------------------------------------------------------------

    /** Through the producer API, one after the other, each acknowledged by Kafka on the event's topic. */
    void post(WireEvent... events) throws Exception {
        for (WireEvent event : events) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(stack.producerApiUrl() + "/v1/events"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(event.json())).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
            assertThat(Json.MAPPER.readTree(response.body()).get("topic").asText()).isEqualTo(event.topic());
            awaitNextMillisecond();
        }
    }

    /**
     * With a plain Kafka client, exactly these records in this order, each acknowledged before the next is sent.
     * Record timestamps strictly increase, like those of any client whose events are a millisecond apart.
     */
    void produce(WireEvent... events) throws ExecutionException, InterruptedException {
        for (WireEvent event : events) {
            long timestamp = Math.max(System.currentTimeMillis(), lastTimestamp + 1);
            producer.send(new ProducerRecord<>(event.topic(), null, timestamp, event.key(), event.json())).get();
            lastTimestamp = timestamp;
        }
    }

    /**
     * Kafka Streams interleaves an author's follow and blog partitions by record timestamp, and records of the same
     * millisecond in either order. A follow and a publish sent within one millisecond are therefore concurrent, not
     * ordered; tests that send them one after the other mean them to be ordered, so the next send waits for the
     * clock to move on (the producer API stamps records with its own clock, which is this JVM's).
     */
    private static void awaitNextMillisecond() {
        long now = System.currentTimeMillis();
        while (System.currentTimeMillis() <= now) {
            Thread.onSpinWait();
        }
    }

    // ---- the view ---------------------------------------------------------------------------------------------

    Counts counts(long userId) throws Exception {
        JsonNode body = get("/v1/users/" + userId + "/unread");
        assertThat(body.get("userId").asLong()).isEqualTo(userId);
        Map<Long, Long> byAuthor = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : body.get("byAuthor").properties()) {
            byAuthor.put(Long.parseLong(field.getKey()), field.getValue().asLong());
        }
        return new Counts(body.get("total").asLong(), byAuthor);
    }

    Page page(long userId, long authorId, int limit, String cursor) throws Exception {
        String query = "?limit=" + limit + (cursor == null ? "" : "&cursor=" + cursor);
        JsonNode body = get("/v1/users/" + userId + "/unread/" + authorId + query);
        List<Long> blogIds = new ArrayList<>();
        for (JsonNode item : body.get("items")) {
            assertThat(item.get("authorId").asLong()).isEqualTo(authorId);
            blogIds.add(item.get("blogId").asLong());
        }
        JsonNode next = body.get("nextCursor");
        assertThat(next).as("nextCursor is always present, null on the last page").isNotNull();
        return new Page(blogIds, next.isNull() ? null : next.asText());
    }

    /** Every unread blog of one author for a user, newest first (one page; these tests stay far below the limit). */
    List<Long> unread(long userId, long authorId) throws Exception {
        Page page = page(userId, authorId, 100, null);
        assertThat(page.nextCursor()).isNull();
        return page.blogIds();
    }

    /** The raw JSON items of one author's first page, for checks of single fields. */
    JsonNode items(long userId, long authorId) throws Exception {
        return get("/v1/users/" + userId + "/unread/" + authorId + "?limit=100").get("items");
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(stack.viewApiUrl() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body());
    }

    /** {@code GET} on the view API's management port: health and metrics. */
    HttpResponse<String> viewManagement(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(stack.viewManagementUrl() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code GET} on the stream processor's own HTTP server: health and metrics. */
    HttpResponse<String> processor(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(stack.processorUrl() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    // ---- waiting ----------------------------------------------------------------------------------------------

    /** Waits until the assertion holds; events travel Kafka → processor → Redis asynchronously. */
    static void eventually(ThrowingRunnable assertion) {
        await().atMost(VISIBLE_WITHIN).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).untilAsserted(assertion);
    }

    /** Waits until the user's unread of that author is exactly these blog ids, newest first. */
    void awaitUnread(long userId, long authorId, Long... newestFirst) {
        eventually(() -> assertThat(unread(userId, authorId)).containsExactly(newestFirst));
    }

    /**
     * Waits until the blog is among the user's unread of that author. Used as the barrier after events that must
     * not change anything: once a later event on the same partition shows, the earlier ones were applied.
     */
    void awaitVisible(long userId, long authorId, long blogId) {
        eventually(() -> assertThat(unread(userId, authorId)).contains(blogId));
    }

    /** Waits until the user's counts satisfy the assertion. */
    void awaitCounts(long userId, ThrowingConsumer<Counts> assertion) {
        eventually(() -> assertion.accept(counts(userId)));
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        stack.close();
    }
}
