package io.readmark.e2e;

import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedKafka;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.ScramUser;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.schemas.Topics;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pipeline on a broker that accepts only SCRAM-authenticated clients, its credentials given through the
 * {@code KAFKA_CLIENT_*} settings alone: the producer API, the processor and a rebuild all reach Kafka with them, and
 * the same producer API without them, or with a wrong password, is refused by the broker.
 */
class SecuredKafkaIT {

    private static final ScramUser USER = new ScramUser("readmark", "readmark-secret");
    private static final Instant PUBLISHED_AT = Instant.parse("2026-01-02T09:00:00Z");

    private static EmbeddedKafka kafka;
    private static EmbeddedRedis redis;
    private static PipelineFixture pipeline;

    @BeforeAll
    static void start() throws Exception {
        kafka = EmbeddedKafka.startWithScram(USER);
        redis = EmbeddedRedis.start(0);
        pipeline = PipelineFixture.start("secured", new Infrastructure(kafka.bootstrapServers(), redis.url()), clientSettings(USER));
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) pipeline.close();
        if (redis != null) redis.close();
        if (kafka != null) kafka.close();
    }

    @Test
    void shouldCarryAPostedEventThroughTheSecuredBrokerIntoTheViewAndRebuildIt() throws Exception {
        // Given a follow and a post through the producer API, applied by the processor
        long user = pipeline.newId(), author = pipeline.newId(), blog = pipeline.newId();
        pipeline.post(pipeline.followed(user, author), pipeline.published(blog, author, PUBLISHED_AT));
        pipeline.awaitUnread(user, author, blog);

        // When Redis loses everything and a rebuild with the same settings replays the topics
        try (RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false)) {
            connections.shared().sync().flushall();
        }
        pipeline.awaitUnread(user, author);
        new Rebuild(ProcessorConfig.from(pipeline.settings()), Instant.now()).run((applied, total, pass) -> { });

        // Then the post is unread again
        pipeline.awaitUnread(user, author, blog);
    }

    @Test
    void shouldBeRefusedByTheBrokerWithoutTheCredentials() throws Exception {
        long author = pipeline.newId();
        String event = pipeline.published(pipeline.newId(), author, PUBLISHED_AT).json();
        for (Map<String, String> client : List.of(Map.<String, String>of(), clientSettings(new ScramUser("readmark", "guessed")))) {
            try (ProducerApi api = ProducerApi.start(ProducerApiConfig.from(producerApiSettings(client)))) {
                HttpResponse<String> response = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/v1/events"))
                                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(event)).build(),
                        HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).as("with client settings %s: %s", client.keySet(), response.body()).isEqualTo(503);
            }
        }
    }

    /** The producer API's settings of the pipeline, with these client settings instead of the pipeline's. */
    private static Settings producerApiSettings(Map<String, String> client) {
        Topics topics = pipeline.stack().topics();
        Map<String, String> env = new HashMap<>(client);
        env.putAll(Map.of("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(), "READMARK_AUTH", "off",
                "PRODUCER_API_HOST", "127.0.0.1", "PRODUCER_API_PORT", "0", "PRODUCER_API_MANAGEMENT_PORT", "0",
                "PRODUCER_API_ACK_TIMEOUT", "PT2S", "READMARK_TOPIC_BLOG_EVENTS", topics.blogEvents().name()));
        return Settings.of(Map.of(), env);
    }

    /** Only what a deployment's environment would carry: protocol, mechanism and the login. */
    private static Map<String, String> clientSettings(ScramUser user) {
        Map<String, String> settings = new HashMap<>();
        user.clientProperties().forEach((name, value) ->
                settings.put("KAFKA_CLIENT_" + name.toUpperCase(Locale.ROOT).replace('.', '_'), value));
        return settings;
    }
}
