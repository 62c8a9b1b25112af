package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code readmark rebuild}: summary, progress and exit status, on a real Kafka and Redis. */
class RebuildCommandIT {

    private final String run = "cli-rebuild-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void shouldRebuildAndPrintWhatItDid(@TempDir Path stateDir) throws Exception {
        // Given a follow, a publish and a record that is no event on the topics
        Map<String, String> settings = settings(stateDir);
        KafkaTopics.createTopics(TestInfrastructure.shared().kafkaBootstrapServers(), Map.of(
                "follow-" + run, 2, "blog-" + run, 2, "read-" + run, 1, "notice-" + run, 1, "dlq-" + run, 1, "fanout-" + run, 1));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.shared().kafkaBootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("follow-" + run, null, 1L, "7",
                    "{\"type\":\"Followed\",\"eventId\":\"f\",\"followerId\":101,\"authorId\":7,\"at\":\"2026-01-01T10:00:00Z\"}")).get();
            producer.send(new ProducerRecord<>("blog-" + run, null, 2L, "7",
                    "{\"type\":\"BlogPublished\",\"eventId\":\"p\",\"blogId\":1001,\"authorId\":7,\"publishedAt\":\"2026-01-01T12:00:00Z\"}")).get();
            producer.send(new ProducerRecord<>("read-" + run, null, 3L, "101", "not json")).get();
        }

        // When rebuilding
        int status = RebuildCommand.from(Settings.of(Map.of(), settings), Instant.now()).run(print(out), print(err), false);

        // Then it exits 0, the follower has the post, and the summary says what happened
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(RebuildCommand.DONE);
        try (RedisConnections redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false)) {
            assertThat(redis.shared().sync().hgetall(new UnreadKeys(run).counts(101))).isEqualTo(Map.of("7", "1", "total", "1"));
        }
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("rebuild done: 3 records in 0:00:")
                .contains("skipped 1 bad records", "read-" + run + " malformed", "e.g. read-" + run + "-0@0: ")
                .contains("temporary applications removed: " + run + "-rebuild-");
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList().getLast())
                .startsWith("rebuild [##############################] 100%  3/3 records");
    }

    @Test
    void shouldExitOneAndSayWhyWhenTheTopicsAreMissing(@TempDir Path stateDir) throws Exception {
        int status = RebuildCommand.from(Settings.of(Map.of(), settings(stateDir)), Instant.now()).run(print(out), print(err), false);

        assertThat(status).isEqualTo(RebuildCommand.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("readmark: rebuild failed: the event topics [", "] do not exist; create them first");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    private Map<String, String> settings(Path stateDir) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", TestInfrastructure.shared().kafkaBootstrapServers(),
                "REDIS_URL", TestInfrastructure.shared().redisUrl(),
                "READMARK_REDIS_PREFIX", run,
                "READMARK_TOPIC_FOLLOW_EVENTS", "follow-" + run,
                "READMARK_TOPIC_BLOG_EVENTS", "blog-" + run,
                "READMARK_TOPIC_READ_EVENTS", "read-" + run,
                "READMARK_TOPIC_DLQ", "dlq-" + run,
                "READMARK_TOPIC_FANOUT", "fanout-" + run,
                "PROCESSOR_APPLICATION_ID", run,
                "PROCESSOR_STATE_DIR", stateDir.toString()));
        settings.put("READMARK_TOPIC_NOTICE_EVENTS", "notice-" + run);
        settings.put("READMARK_PROGRESS_INTERVAL", "PT0S");
        return settings;
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
