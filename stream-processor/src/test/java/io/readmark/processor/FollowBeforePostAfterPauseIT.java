package io.readmark.processor;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.commit.CaughtUp;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadWriter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A follow that was on the broker before an author's next posts gets them, also after the stream thread was held up
 * (here by Redis being down) while a backlog built up. The consumer then hands over the blog partition's backlog
 * first (the follow partition, whose record it handed over last, comes last in its fetch order) while it still
 * believes the follow partition is at its end, so Kafka Streams processes the posts before the follow; the follow
 * must still get them.
 */
class FollowBeforePostAfterPauseIT {

    private static final long AUTHOR = 7;
    private static final long EARLY_FOLLOWER = 101;
    private static final long NEW_FOLLOWER = 102;
    private static final long AUTHOR_WITHOUT_FOLLOWERS = 8;
    private static final int POSTS = 5;
    /** More than a poll hands over (max.poll.records is 1,000), so the posts come in a poll without the follow. */
    private static final int BACKLOG = 1_500;

    private final ListAppender<ILoggingEvent> writerLog = new ListAppender<>();
    private long clock = System.currentTimeMillis();
    private String run;
    private KafkaProducer<String, String> producer;

    @Test
    void shouldGiveAFollowThePostsAfterItAlsoWhenTheyAreProcessedFirstAfterALongPause() throws Exception {
        String kafka = TestInfrastructure.shared().kafkaBootstrapServers();
        run = "pause-" + UUID.randomUUID();
        Map<String, String> settings = OwnTopics.settings(kafka, run);
        settings.put("PROCESSOR_ROLES", "main");
        Logger logger = (Logger) LoggerFactory.getLogger(UnreadWriter.class);
        writerLog.start();
        logger.addAppender(writerLog);

        try (EmbeddedRedis redis = EmbeddedRedis.startPersistent(0);
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka,
                     ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
             StreamProcessor processor = StreamProcessor.start(ProcessorConfig.from(Settings.of(Map.of("REDIS_URL", redis.url()), settings)));
             RedisConnections reader = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false)) {
            this.producer = producer;
            UnreadKeys keys = new UnreadKeys(run);
            assertThat(processor.awaitRunning(Duration.ofSeconds(60))).isTrue();
            // Given a processor that has caught up with the author's follows and posts
            follow(EARLY_FOLLOWER);
            post(AUTHOR, 1);
            await().atMost(Duration.ofSeconds(30)).until(() -> reader.shared().sync().hget(keys.h(EARLY_FOLLOWER), "total") != null);

            // When Redis goes away and the stream thread waits for it, last having handed over a follow-events record
            redis.stop();
            unfollow(EARLY_FOLLOWER);
            await().atMost(Duration.ofSeconds(30)).until(() -> writerLog.list.stream()
                    .anyMatch(event -> event.getFormattedMessage().contains("Redis writes failed")));
            // and meanwhile a new follow, then the author's posts, then a backlog of other posts reach the broker
            follow(NEW_FOLLOWER);
            for (int i = 0; i < POSTS; i++) post(AUTHOR, 10 + i);
            for (int i = 0; i < BACKLOG; i++) post(AUTHOR_WITHOUT_FOLLOWERS, 100 + i);
            producer.flush();
            redis.restart();

            // Then, once everything is processed, the new follower has every post published after the follow
            awaitCaughtUp(kafka);
            assertThat(reader.shared().sync().hget(keys.h(NEW_FOLLOWER), "total")).isEqualTo(Long.toString(POSTS));
        } finally {
            logger.detachAppender(writerLog);
        }
    }

    /** The application has applied every record of its event topics (offsets follow Redis acknowledgements). */
    private void awaitCaughtUp(String kafka) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            CaughtUp.await(admin, run, List.of("blog-" + run, "follow-" + run), Duration.ofSeconds(60));
        }
    }

    private void follow(long follower) {
        long at = ++clock;
        send("follow-" + run, AUTHOR, at, """
                {"type":"Followed","eventId":"f-%d","followerId":%d,"authorId":%d,"at":"%s"}"""
                .formatted(follower, follower, AUTHOR, Instant.ofEpochMilli(at)));
        producer.flush(); // on the broker before any later post, as the blog service's ordering promises
    }

    private void unfollow(long follower) {
        long at = ++clock;
        send("follow-" + run, AUTHOR, at, """
                {"type":"Unfollowed","eventId":"u-%d","followerId":%d,"authorId":%d,"at":"%s"}"""
                .formatted(follower, follower, AUTHOR, Instant.ofEpochMilli(at)));
        producer.flush();
    }

    private void post(long author, long blog) {
        long at = ++clock;
        send("blog-" + run, author, at, """
                {"type":"BlogPublished","eventId":"p-%d","blogId":%d,"authorId":%d,"publishedAt":"%s"}"""
                .formatted(blog, blog, author, Instant.ofEpochMilli(at)));
    }

    private void send(String topic, long key, long timestamp, String json) {
        producer.send(new ProducerRecord<>(topic, null, timestamp, Long.toString(key), json));
    }
}
