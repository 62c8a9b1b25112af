package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadReader;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
            producer.send(new ProducerRecord<>("follow-" + run, null, at("2026-01-01T10:00:00Z"), "7",
                    "{\"type\":\"Followed\",\"eventId\":\"f\",\"followerId\":101,\"authorId\":7,\"at\":\"2026-01-01T10:00:00Z\"}")).get();
            producer.send(new ProducerRecord<>("blog-" + run, null, at("2026-01-01T12:00:00Z"), "7",
                    "{\"type\":\"BlogPublished\",\"eventId\":\"p\",\"blogId\":1001,\"authorId\":7,\"publishedAt\":\"2026-01-01T12:00:00Z\"}")).get();
            producer.send(new ProducerRecord<>("read-" + run, null, at("2026-01-01T12:01:00Z"), "101", "not json")).get();
        }

        // When rebuilding
        int status = RebuildCommand.from(Settings.of(Map.of(), settings), Instant.now()).run(print(out), print(err), false);

        // Then it exits 0, the follower has the post, and the summary says what happened
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(RebuildCommand.DONE);
        try (RedisConnections redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false)) {
            assertThat(new UnreadReader(redis.shared(), new UnreadKeys(run)).counts(101).byAuthor()).isEqualTo(Map.of(7L, 1L));
        }
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("rebuild done: 3 records in 0:00:")
                .contains("skipped 1 bad records", "read-" + run + " malformed", "e.g. read-" + run + "-0@0: ")
                .contains("temporary applications removed: " + run + "-rebuild-");
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList().getLast())
                .startsWith("rebuild [##############################] 100%  3/3 records");
    }

    @Test
    void shouldRemoveWhatAnInterruptedRebuildLeftAndLeaveOneThatIsRunning(@TempDir Path stateDir) throws Exception {
        // Given what a rebuild killed before its clean-up leaves — a group with offsets and no member, an internal
        // topic, a state folder — a rebuild running elsewhere, whose group has a member, and a group of another
        // application whose id merely starts like a rebuild's
        Map<String, String> settings = settings(stateDir);
        String bootstrap = TestInfrastructure.shared().kafkaBootstrapServers();
        String killed = run + "-rebuild-20260101-000000000";
        String running = run + "-rebuild-20260101-000000001";
        String lookalike = run + "-rebuild-of-the-search-index";
        KafkaTopics.createTopics(bootstrap, Map.of("follow-" + run, 1, "blog-" + run, 1, "read-" + run, 1, "notice-" + run, 1,
                "dlq-" + run, 1, "fanout-" + run, 1, killed + "-reads-KSTREAM-0-repartition", 1, running + "-KSTREAM-0-repartition", 1));
        TopicPartition follows = new TopicPartition("follow-" + run, 0);
        for (String group : List.of(killed + "-reads", lookalike)) {
            try (KafkaConsumer<String, String> dead = consumer(bootstrap, group)) {
                dead.assign(List.of(follows));
                dead.commitSync(Map.of(follows, new OffsetAndMetadata(0)));
            }
        }
        Files.createDirectories(stateDir.resolve(killed + "-reads").resolve("0_0"));
        try (KafkaConsumer<String, String> member = consumer(bootstrap, running);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            member.subscribe(List.of("follow-" + run));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                member.poll(Duration.ofMillis(100));
                return !member.assignment().isEmpty();
            });

            // When rebuilding
            int status = RebuildCommand.from(Settings.of(Map.of(), settings), Instant.now()).run(print(out), print(err), false);

            // Then the killed rebuild's leftovers are gone, the running one's are not, and the summary says which is which
            assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(RebuildCommand.DONE);
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("also removed what interrupted rebuilds left: " + killed + "\n")
                    .contains("left for the next run (their groups still have members: running elsewhere, or killed less than 10 s ago): "
                            + running + "\n");
            List<String> groups = admin.listGroups().all().get().stream().map(GroupListing::groupId).toList();
            assertThat(groups).doesNotContain(killed + "-reads").contains(running, lookalike);
            Set<String> topics = admin.listTopics().names().get();
            assertThat(topics).doesNotContain(killed + "-reads-KSTREAM-0-repartition").contains(running + "-KSTREAM-0-repartition");
            assertThat(stateDir.resolve(killed + "-reads")).doesNotExist();
        }
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

    private static KafkaConsumer<String, String> consumer(String bootstrap, String group) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer());
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    /** A record timestamp at the event's own time: an event dated far past its record is refused. */
    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

}
