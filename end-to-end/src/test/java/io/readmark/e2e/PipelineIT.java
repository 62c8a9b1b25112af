package io.readmark.e2e;

import io.readmark.launcher.LocalStack;
import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.config.Settings;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.Json;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The whole pipeline on a real broker and a real Redis: HTTP ingest → Kafka → stream processor → Redis → view API. */
class PipelineIT {

    private static final HttpClient http = HttpClient.newHttpClient();
    @AutoClose
    private static LocalStack stack;

    @BeforeAll
    static void startStack() throws Exception {
        Infrastructure infra = TestInfrastructure.shared();
        String run = UUID.randomUUID().toString().substring(0, 8);
        stack = LocalStack.start(Settings.of(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", infra.kafkaBootstrapServers(),
                "REDIS_URL", infra.redisUrl(),
                "READMARK_REDIS_PREFIX", "e2e-" + run,
                "READMARK_TOPIC_BLOG_EVENTS", "blog-events-" + run,
                "READMARK_TOPIC_FOLLOW_EVENTS", "follow-events-" + run,
                "READMARK_TOPIC_READ_EVENTS", "read-events-" + run,
                "READMARK_TOPIC_DLQ", "dlq-" + run,
                "PROCESSOR_APPLICATION_ID", "e2e-" + run,
                "PRODUCER_API_PORT", "0",
                "VIEW_API_PORT", "0"), Map.of()).withOverrides(Map.of("READMARK_TOPIC_FANOUT", "fanout-" + run)));
    }

    @Test
    void shouldRunWithoutAuthenticationUnlessAskedFor() {
        // The other tests call both APIs without a token; this names why they may.
        assertThat(stack.authenticated()).isFalse();
    }

    @Test
    void shouldShowAPublishedPostToEveryFollowerUntilTheyReadIt() throws Exception {
        // Given three followers of author 7
        for (long follower : List.of(101L, 102L, 103L)) {
            post("""
                    {"type":"Followed","eventId":"f-%d","followerId":%d,"authorId":7,"at":"2026-01-01T10:00:00Z"}""".formatted(follower, follower));
        }
        // When the author publishes
        JsonNode accepted = post("""
                {"type":"BlogPublished","eventId":"p-1001","blogId":1001,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""");
        assertThat(accepted.get("topic").asText()).startsWith("blog-events-");
        assertThat(accepted.get("offset").asLong()).isNotNegative();

        // Then each follower's count and list show it
        for (long follower : List.of(101L, 102L, 103L)) {
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(get("/v1/users/" + follower + "/unread").get("total").asLong()).isEqualTo(1));
            JsonNode counts = get("/v1/users/" + follower + "/unread");
            assertThat(counts.get("byAuthor").get("7").asLong()).isEqualTo(1);
            JsonNode page = get("/v1/users/" + follower + "/unread/7?limit=20");
            assertThat(page.get("items").get(0).get("blogId").asLong()).isEqualTo(1001);
            assertThat(page.get("items").get(0).get("publishedAt").asText()).isEqualTo("2026-01-01T12:00:00Z");
            assertThat(page.get("nextCursor").isNull()).isTrue();
        }

        // When one follower reads it
        post("""
                {"type":"BlogRead","eventId":"r-102-1001","userId":102,"blogId":1001,"authorId":7,"readAt":"2026-01-01T13:00:00Z"}""");

        // Then only that follower's count drops
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(get("/v1/users/102/unread").get("total").asLong()).isZero());
        assertThat(get("/v1/users/101/unread").get("total").asLong()).isEqualTo(1);
        assertThat(get("/v1/users/103/unread").get("total").asLong()).isEqualTo(1);
    }

    @Test
    void shouldApplyWireJsonFromAnyKafkaClientAndDeadLetterWhatIsBroken() throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers()), new StringSerializer(), new StringSerializer())) {
            String follows = stack.topics().followEvents().name();
            String blogs = stack.topics().blogEvents().name();
            // Given a follower, and poison in front of a valid publish, as a plain client would send it
            producer.send(new ProducerRecord<>(follows, "70", """
                    {"type":"Followed","eventId":"f","followerId":"201","authorId":"70","at":"2026-01-01T10:00:00Z","via":"kcat"}""")).get();
            producer.send(new ProducerRecord<>(blogs, "70", "{not json")).get();
            producer.send(new ProducerRecord<>(blogs, "70", """
                    {"type":"BlogPublished","eventId":"bad","authorId":70,"publishedAt":"2026-01-01T12:00:00Z"}""")).get();
            producer.send(new ProducerRecord<>(blogs, "70", """
                    {"type":"BlogPublished","eventId":"good","blogId":7001,"authorId":70,"publishedAt":"2026-01-01T12:00:00Z"}""")).get();
        }

        // Then the valid event is applied and both bad records are on the dead-letter topic with a reason
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(get("/v1/users/201/unread").path("byAuthor").path("70").asLong()).isEqualTo(1));
        List<ConsumerRecord<String, String>> deadLetters = readDeadLetters(2);
        assertThat(deadLetters).extracting(ConsumerRecord::value).containsExactlyInAnyOrder("{not json",
                "{\"type\":\"BlogPublished\",\"eventId\":\"bad\",\"authorId\":70,\"publishedAt\":\"2026-01-01T12:00:00Z\"}");
        assertThat(deadLetters).allSatisfy(record -> {
            assertThat(record.headers().lastHeader(DeadLetterHeaders.REASON)).isNotNull();
            assertThat(new String(record.headers().lastHeader(DeadLetterHeaders.SOURCE_TOPIC).value(), StandardCharsets.UTF_8))
                    .isEqualTo(stack.topics().blogEvents().name());
        });
    }

    private static List<ConsumerRecord<String, String>> readDeadLetters(int expected) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(stack.topics().deadLetters().name()));
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
            });
        }
        return records;
    }

    private static JsonNode post(String json) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(stack.producerApiUrl() + "/v1/events"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return Json.MAPPER.readTree(response.body());
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(stack.viewApiUrl() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body());
    }
}
