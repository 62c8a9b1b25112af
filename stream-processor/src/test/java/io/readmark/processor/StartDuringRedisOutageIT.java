package io.readmark.processor;

import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.Json;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadReader;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A processor (re)started while Redis is down: it serves health, is not ready, consumes nothing, and once Redis
 * answers starts and applies everything that waited, exactly once.
 */
class StartDuringRedisOutageIT {

    private static final long AUTHOR = 7;
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldStartNotReadyAndApplyEverythingOnceRedisAnswers() throws Exception {
        // Given a Redis that is not running, and events already on their topics
        String kafka = TestInfrastructure.shared().kafkaBootstrapServers();
        String run = "outage-start-" + UUID.randomUUID();
        Map<String, String> settings = OwnTopics.settings(kafka, run);
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka,
                     ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
            redis.stop();
            long at = Instant.parse("2026-01-01T10:00:00Z").toEpochMilli();
            for (long follower = 101; follower <= 103; follower++) {
                send(producer, "follow-" + run, at++, """
                        {"type":"Followed","eventId":"f-%d","followerId":%d,"authorId":%d,"at":"%s"}"""
                        .formatted(follower, follower, AUTHOR, Instant.ofEpochMilli(at)));
            }
            producer.flush();
            for (long blog = 1; blog <= 4; blog++) {
                send(producer, "blog-" + run, at++, """
                        {"type":"BlogPublished","eventId":"p-%d","blogId":%d,"authorId":%d,"publishedAt":"%s"}"""
                        .formatted(blog, blog, AUTHOR, Instant.ofEpochMilli(at)));
            }
            send(producer, "read-" + run, at++, """
                    {"type":"BlogRead","eventId":"r-1","userId":101,"blogId":2,"authorId":%d,"readAt":"%s"}"""
                    .formatted(AUTHOR, Instant.ofEpochMilli(at)));
            producer.flush();

            // When the processor starts
            try (StreamProcessor processor = StreamProcessor.start(ProcessorConfig.from(Settings.of(Map.of("REDIS_URL", redis.url()), settings)))) {

                // Then it is live, says why it is not ready, and consumed nothing
                String base = "http://127.0.0.1:" + processor.httpPort();
                assertThat(get(base + "/health/live").statusCode()).isEqualTo(200);
                HttpResponse<String> ready = get(base + "/health/ready");
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(Json.MAPPER.readTree(ready.body()).get("detail").asText()).contains("waiting for Redis");
                assertThat(processor.isRunning()).isFalse();
                assertThat(processor.state()).contains("waiting for Redis");

                // When Redis comes back
                redis.restart();

                // Then it becomes ready by itself, and every event is applied exactly
                assertThat(processor.awaitRunning(Duration.ofSeconds(60))).isTrue();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(get(base + "/health/ready").statusCode()).isEqualTo(200));
                try (RedisConnections reader = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false)) {
                    UnreadKeys keys = new UnreadKeys(run);
                    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                        assertThat(new UnreadReader(reader.shared(), keys).counts(101).byAuthor()).isEqualTo(Map.of(7L, 3L));
                        assertThat(new UnreadReader(reader.shared(), keys).counts(102).byAuthor()).isEqualTo(Map.of(7L, 4L));
                        assertThat(new UnreadReader(reader.shared(), keys).counts(103).byAuthor()).isEqualTo(Map.of(7L, 4L));
                    });
                }
            }
        }
    }

    @Test
    void shouldCloseAtOnceWhileStillWaitingForRedis() throws Exception {
        // Given a processor waiting for a Redis that never comes
        String kafka = TestInfrastructure.shared().kafkaBootstrapServers();
        String run = "outage-close-" + UUID.randomUUID();
        try (EmbeddedRedis redis = EmbeddedRedis.start(0)) {
            redis.stop();
            StreamProcessor processor = StreamProcessor.start(ProcessorConfig.from(Settings.of(Map.of("REDIS_URL", redis.url()), OwnTopics.settings(kafka, run))));
            assertThat(processor.awaitRunning(Duration.ofMillis(300))).isFalse();

            // When it is closed, Then it returns promptly and its port is released
            long started = System.nanoTime();
            processor.close();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            assertThatThrownBy(() -> get("http://127.0.0.1:" + processor.httpPort() + "/health/live")).isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void shouldStillRefuseAUrlThatIsNotOne() {
        String kafka = TestInfrastructure.shared().kafkaBootstrapServers();
        String run = "outage-url-" + UUID.randomUUID();
        assertThatThrownBy(() -> StreamProcessor.start(ProcessorConfig.from(Settings.of(Map.of("REDIS_URL", "not a url"), OwnTopics.settings(kafka, run)))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static void send(KafkaProducer<String, String> producer, String topic, long timestamp, String json) {
        String key = topic.startsWith("read-") ? "101" : Long.toString(AUTHOR);
        producer.send(new ProducerRecord<>(topic, null, timestamp, key, json));
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A counts hash without its state version, which starts at the time of the user's first change. */
    private static Map<String, String> withoutVersion(Map<String, String> counts) {
        Map<String, String> fields = new java.util.HashMap<>(counts);
        fields.remove("v");
        return fields;
    }
}
