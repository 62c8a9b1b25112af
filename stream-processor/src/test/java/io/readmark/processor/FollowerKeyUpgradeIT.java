package io.readmark.processor;

import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.commit.CaughtUp;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A processor started on a follower graph written with the former 16-byte keys {@code authorId ‖ followerId}: here
 * its changelog holds only such pairs (as a processor before the walk by slot left it), the task restores them and
 * converts them before its first record, and posts then reach exactly the followers, inline and through the big-V
 * path, as does an unfollow of a converted pair.
 */
class FollowerKeyUpgradeIT {

    private static final long AUTHOR = 7;
    private static final long BIG_V = 8;
    private static final List<Long> FOLLOWERS = List.of(101L, 102L, 103L);
    private static final long UNFOLLOWED = 104;
    private static final List<Long> BIG_V_FOLLOWERS = LongStream.rangeClosed(201, 206).boxed().toList();

    private final long followedAt = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
    private long clock = System.currentTimeMillis();
    private String run;

    @Test
    void shouldDeliverToEveryFollowerStoredUnderTheFormerKeysAfterTheUpgrade() throws Exception {
        String kafka = TestInfrastructure.shared().kafkaBootstrapServers();
        run = "keys-" + UUID.randomUUID();
        Map<String, String> settings = OwnTopics.settings(kafka, run);
        settings.putAll(Map.of("PROCESSOR_AUTHOR_PARTITIONS", "1", "PROCESSOR_BIGV_THRESHOLD", "5"));
        KafkaTopics.createTopics(kafka, Map.of(changelog(FollowerGraph.STORE_NAME), 1, changelog(FollowerGraph.COUNTS_STORE_NAME), 1));
        // Given the graph as the former keys left it: three followers of one author and one who unfollowed, six of a big-V
        try (KafkaProducer<byte[], byte[]> changelogs = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka,
                ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
            FOLLOWERS.forEach(follower -> oldPair(changelogs, AUTHOR, follower, ByteBuffer.allocate(Long.BYTES).putLong(followedAt).array()));
            oldPair(changelogs, AUTHOR, UNFOLLOWED, ByteBuffer.allocate(1 + Long.BYTES).put((byte) 'U').putLong(followedAt).array());
            BIG_V_FOLLOWERS.forEach(follower -> oldPair(changelogs, BIG_V, follower, ByteBuffer.allocate(Long.BYTES).putLong(followedAt).array()));
            count(changelogs, AUTHOR, FOLLOWERS.size(), false);
            count(changelogs, BIG_V, BIG_V_FOLLOWERS.size(), true);
        }

        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka,
                     ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
             StreamProcessor processor = StreamProcessor.start(ProcessorConfig.from(Settings.of(Map.of("REDIS_URL", redis.url()), settings)));
             RedisConnections reader = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false)) {
            UnreadKeys keys = new UnreadKeys(run);
            assertThat(processor.awaitRunning(Duration.ofSeconds(60))).isTrue();

            // When the processor started on it sees a post of each, then an unfollow and a second post
            post(producer, AUTHOR, 1);
            post(producer, BIG_V, 2);
            producer.send(new ProducerRecord<>("follow-" + run, null, ++clock, Long.toString(AUTHOR), """
                    {"type":"Unfollowed","eventId":"u","followerId":%d,"authorId":%d,"at":"%s"}"""
                    .formatted(FOLLOWERS.getFirst(), AUTHOR, Instant.ofEpochMilli(clock))));
            post(producer, AUTHOR, 3);
            producer.flush();

            // Then each reaches exactly the followers
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                for (long follower : BIG_V_FOLLOWERS) assertThat(total(reader, keys, follower)).as("big-V follower " + follower).isEqualTo("1");
            });
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
                CaughtUp.await(admin, run, List.of("blog-" + run, "follow-" + run), Duration.ofSeconds(60));
            }
            assertThat(reader.shared().sync().hgetall(keys.h(FOLLOWERS.getFirst()))).as("unfollowed before the second post: none")
                    .doesNotContainKey("total");
            for (long follower : FOLLOWERS.subList(1, FOLLOWERS.size())) {
                assertThat(total(reader, keys, follower)).as("follower " + follower).isEqualTo("2");
            }
            assertThat(total(reader, keys, UNFOLLOWED)).as("the pair that had unfollowed").isNull();
        }
    }

    private String changelog(String store) {
        return run + "-" + store + "-changelog";
    }

    private void oldPair(KafkaProducer<byte[], byte[]> producer, long author, long follower, byte[] value) {
        producer.send(new ProducerRecord<>(changelog(FollowerGraph.STORE_NAME), 0,
                ByteBuffer.allocate(2 * Long.BYTES).putLong(author).putLong(follower).array(), value));
    }

    private void count(KafkaProducer<byte[], byte[]> producer, long author, long followers, boolean bigV) {
        producer.send(new ProducerRecord<>(changelog(FollowerGraph.COUNTS_STORE_NAME), 0,
                ByteBuffer.allocate(Long.BYTES).putLong(author).array(),
                ByteBuffer.allocate(Long.BYTES + 1).putLong(followers).put((byte) (bigV ? 1 : 0)).array()));
    }

    private void post(KafkaProducer<String, String> producer, long author, long blog) {
        long at = ++clock;
        producer.send(new ProducerRecord<>("blog-" + run, null, at, Long.toString(author), """
                {"type":"BlogPublished","eventId":"p-%d","blogId":%d,"authorId":%d,"publishedAt":"%s"}"""
                .formatted(blog, blog, author, Instant.ofEpochMilli(at))));
    }

    private static String total(RedisConnections reader, UnreadKeys keys, long user) {
        return reader.shared().sync().hget(keys.h(user), "total");
    }
}
