package io.readmark.e2e;

import io.readmark.launcher.LocalStack;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.readmark.common.config.Settings;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.StreamProcessor;
import io.readmark.processor.commit.CaughtUp;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Big-V fan-out end to end, with the threshold lowered to 1,000: authors with 20,000 followers are fanned out as
 * chunks by a separate, rate-limited worker application; every follower gets exactly one delivery, a normal
 * author's post is visible while the big-V fan-out is still running, a worker process killed mid-fan-out is
 * replaced without loss or double counting, and a delete during a fan-out leaves no follower holding the blog.
 */
class BigVFanoutIT {

    private static final int FOLLOWERS = 20_000;
    private static final long NORMAL_AUTHOR = 30_901;
    private static final Duration WITHIN = Duration.ofSeconds(60);

    private static LocalStack stack;
    private static Map<String, String> values;
    private static Settings settings;
    private static RedisConnections redis;
    private static UnreadKeys keys;
    private static KafkaProducer<String, String> producer;
    private StreamProcessor worker;

    @BeforeAll
    static void startPipeline() throws Exception {
        Infrastructure infra = TestInfrastructure.shared();
        String run = "bigv-" + UUID.randomUUID().toString().substring(0, 8);
        values = new HashMap<>(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", infra.kafkaBootstrapServers(),
                "REDIS_URL", infra.redisUrl(),
                "READMARK_REDIS_PREFIX", run,
                "READMARK_TOPIC_BLOG_EVENTS", "blog-events-" + run,
                "READMARK_TOPIC_FOLLOW_EVENTS", "follow-events-" + run,
                "READMARK_TOPIC_READ_EVENTS", "read-events-" + run,
                "READMARK_TOPIC_DLQ", "dlq-" + run,
                "READMARK_TOPIC_FANOUT", "fanout-" + run,
                "PROCESSOR_APPLICATION_ID", run,
                "PROCESSOR_BIGV_THRESHOLD", "1000"));
        values.putAll(Map.of("READMARK_TOPIC_NOTICE_EVENTS", "notice-events-" + run,
                "PRODUCER_API_PORT", "0", "VIEW_API_PORT", "0", "PROCESSOR_HTTP_PORT", "0",
                // the test runs the worker itself, so it can stop and restart it
                "PROCESSOR_ROLES", "main",
                // slow enough that a 20,000-follower fan-out is still running when the normal post arrives
                "PROCESSOR_FANOUT_DELIVERIES_PER_SECOND", "5000",
                "PROCESSOR_FANOUT_CHUNK_SIZE", "500"));
        settings = Settings.of(values, Map.of());
        stack = LocalStack.start(settings);
        redis = RedisConnections.connect(infra.redisUrl(), Duration.ofSeconds(30), false);
        keys = new UnreadKeys(run);
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, 5), new StringSerializer(), new StringSerializer());
        for (long follower = 1; follower <= FOLLOWERS; follower++) {
            for (long author : List.of(30_900L, 30_910L, 30_920L)) follow(follower, author);
            if (follower <= 100) follow(follower, NORMAL_AUTHOR);
        }
        producer.flush();
        awaitFollowsConsumed(run);
    }

    /**
     * Until the main processor has committed every follow: a post that overtook them would be fanned out to the
     * followers the graph has so far, which is correct but not what these tests measure.
     */
    private static void awaitFollowsConsumed(String applicationId) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers()))) {
            CaughtUp.await(admin, applicationId, List.of(stack.topics().followEvents().name()), WITHIN);
        }
    }

    @AfterEach
    void stopWorker() {
        if (worker != null) worker.close();
    }

    @AfterAll
    static void stopPipeline() {
        producer.close();
        redis.close();
        stack.close();
    }

    private void startWorker() throws InterruptedException {
        worker = StreamProcessor.start(ProcessorConfig.from(settings.withOverrides(Map.of("PROCESSOR_ROLES", "fanout"))));
        assertThat(worker.awaitRunning(Duration.ofSeconds(60))).isTrue();
    }

    private static void follow(long follower, long author) {
        producer.send(new ProducerRecord<>(stack.topics().followEvents().name(), Long.toString(author), """
                {"type":"Followed","eventId":"f-%d-%d","followerId":%d,"authorId":%d,"at":"2026-01-01T00:00:00Z"}"""
                .formatted(follower, author, follower, author)));
    }

    private static void blogEvent(String type, long blogId, long author, String instantField) {
        producer.send(new ProducerRecord<>(stack.topics().blogEvents().name(), Long.toString(author), """
                {"type":"%s","eventId":"%s-%d","blogId":%d,"authorId":%d,"%s":"2026-01-02T00:00:00Z"}"""
                .formatted(type, type, blogId, blogId, author, instantField)));
        producer.flush();
    }

    /** How many followers hold unread of {@code author}, and the largest count any one of them has. */
    private static long[] deliveries(long author) throws Exception {
        RedisClusterAsyncCommands<String, String> async = redis.shared().async();
        // An author's count is its records' number, 12 bytes each.
        List<RedisFuture<Long>> counts = new ArrayList<>(FOLLOWERS);
        for (long user = 1; user <= FOLLOWERS; user++) counts.add(async.hstrlen(keys.h(user), Long.toString(author)));
        long holders = 0;
        long max = 0;
        for (RedisFuture<Long> count : counts) {
            long records = count.get() / 12;
            if (records == 0) continue;
            holders++;
            max = Math.max(max, records);
        }
        return new long[]{holders, max};
    }

    @Test
    void shouldDeliverToEveryFollowerExactlyOnceWithoutHoldingUpANormalAuthor() throws Exception {
        startWorker();
        blogEvent("BlogPublished", 9001, 30_900, "publishedAt");
        blogEvent("BlogPublished", 9002, NORMAL_AUTHOR, "publishedAt");

        await().atMost(WITHIN).pollInterval(Duration.ofMillis(20)).until(() ->
                redis.shared().sync().hexists(keys.h(100), Long.toString(NORMAL_AUTHOR)));
        assertThat(deliveries(30_900)[0]).as("the big-V fan-out is still running when the normal post is visible")
                .isLessThan(FOLLOWERS);

        await().atMost(WITHIN).until(() -> deliveries(30_900)[0] == FOLLOWERS);
        assertThat(deliveries(30_900)[1]).as("exactly one delivery each").isEqualTo(1);
    }

    @Test
    void shouldEndExactWhenTheWorkerIsKilledMidFanOutAndRestarted() throws Exception {
        Process killed = startWorkerProcess();
        blogEvent("BlogPublished", 9101, 30_910, "publishedAt");
        await().atMost(WITHIN).until(() -> deliveries(30_910)[0] > 2_000);

        killed.destroyForcibly();                       // SIGKILL: no commit, no leaving the group
        killed.waitFor();
        assertThat(deliveries(30_910)[0]).as("killed in the middle").isLessThan(FOLLOWERS);
        startWorker();

        // the dead member's partitions move once its session times out (45 s by default)
        await().atMost(Duration.ofMinutes(3)).until(() -> deliveries(30_910)[0] == FOLLOWERS);
        assertThat(deliveries(30_910)[1]).as("no follower counted twice").isEqualTo(1);
    }

    /** The fan-out worker as its own OS process, so it can be killed like a crashed host. */
    private static Process startWorkerProcess() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                StreamProcessor.class.getName());
        builder.environment().putAll(values);
        builder.environment().put("PROCESSOR_ROLES", "fanout");
        builder.environment().put("PROCESSOR_STATE_DIR", Files.createTempDirectory("killed-worker").toString());
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return builder.start();
    }

    @Test
    void shouldLeaveNoFollowerHoldingABlogDeletedDuringItsFanOut() throws Exception {
        startWorker();
        blogEvent("BlogPublished", 9201, 30_920, "publishedAt");
        await().atMost(WITHIN).until(() -> deliveries(30_920)[0] > 1_000);

        blogEvent("BlogDeleted", 9201, 30_920, "deletedAt");

        await().atMost(WITHIN).until(() -> deliveries(30_920)[0] == 0);
    }
}
