package io.readmark.processor;

import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.deadletters.DeadLetterCopy;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.BigVPolicy;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.Topics;
import io.readmark.store.unread.UnreadCounts;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The processor topology in a TopologyTestDriver, writing to a real Redis. */
class UnreadTopologyIT {

    private static final Topics TOPICS = Topics.defaults();
    private static final long ALICE = 7;
    private static final FanoutSettings FANOUT =
            new FanoutSettings(BigVPolicy.withThreshold(1_000), 100, 4, Duration.ofMillis(50), Duration.ofDays(7), Duration.ofDays(1));

    private TopologyFixture fixture;
    private TopologyTestDriver driver;
    private TopologyInputs inputs;
    private TestInputTopic<String, String> follows;
    private TestInputTopic<String, String> blogs;
    private TestInputTopic<String, String> reads;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void startDriver() throws Exception {
        fixture = new TopologyFixture((writers, meters) -> UnreadTopology.build(TOPICS, EventTimeLimit.DEFAULT, 1, writers, new ThreadCommits(),
                FANOUT, meters));
        driver = fixture.driver;
        inputs = new TopologyInputs(driver, TOPICS);
        follows = inputs.follows;
        blogs = inputs.blogs;
        reads = inputs.reads;
        deadLetters = inputs.deadLetters;
    }

    @AfterEach
    void closeDriver() {
        fixture.close();
    }

    private UnreadCounts counts(long userId) {
        return fixture.counts(userId);
    }

    private void follow(long follower, long author) {
        follow(follower, author, "2026-01-01T00:00:00Z");
    }

    private void follow(long follower, long author, String at) {
        inputs.followed(follower, author, at);
    }

    private void publish(long blogId, long author, String at) {
        inputs.published(blogId, author, at);
    }

    @Test
    void shouldMakeAPostUnreadForEveryFollowerButNotForOthersOrTheAuthor() {
        follow(101, ALICE);
        follow(102, ALICE);
        follow(ALICE, ALICE);
        follow(103, 8);

        publish(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(counts(101).byAuthor()).containsExactly(Map.entry(ALICE, 1L));
        assertThat(counts(102).total()).isEqualTo(1);
        assertThat(counts(103).total()).isZero();
        assertThat(counts(ALICE).total()).isZero();
        assertThat(fixture.meter("readmark.deliveries", "role", "main")).as("deliveries acknowledged").isEqualTo(2);
    }

    @Test
    void shouldCountAReplayedPublishOnce() {
        follow(101, ALICE);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        assertThat(counts(101).total()).isEqualTo(1);
    }

    /**
     * A publish processed again after a later follow: replayed after a crash, when the follower graph restored from
     * its changelog already holds follows that came after it, or sent twice by a producer.
     */
    @Test
    void shouldNotGiveAPostToSomeoneWhoFollowedAfterItWhenThePublishIsProcessedAgain() {
        follow(101, ALICE, "2026-01-01T11:00:00Z");
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        follow(102, ALICE, "2026-01-01T12:05:00Z");

        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T12:10:00Z");

        assertThat(counts(101).total()).isEqualTo(2);
        assertThat(counts(102).total()).as("only the post published after the follow").isEqualTo(1);
    }

    /**
     * A follow processed after posts published after it (Kafka Streams can hand over the blog partition's backlog
     * first, after a pause) still gets them, but not posts published before it nor deleted ones.
     */
    @Test
    void shouldGiveAFollowerThePostsPublishedAfterTheFollowThatWereProcessedBeforeIt() {
        publish(1000, ALICE, "2026-01-01T10:00:00Z");
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T12:05:00Z");
        blogs.pipeInput("7", """
                {"type":"BlogDeleted","eventId":"d2","blogId":1002,"authorId":7,"deletedAt":"2026-01-01T12:10:00Z"}""");

        follow(102, ALICE, "2026-01-01T11:00:00Z");
        follow(102, ALICE, "2026-01-01T11:00:00Z");

        assertThat(counts(102).byAuthor()).as("only the post published after the follow and not deleted")
                .containsExactly(Map.entry(ALICE, 1L));
    }

    @Test
    void shouldReadEachListedPostOnceEvenListedTwiceAndKeepOutOneDeliveredAfter() {
        follow(101, ALICE);
        follow(101, 8);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T12:01:00Z");
        publish(2001, 8, "2026-01-01T12:02:00Z");

        reads.pipeInput("101", """
                {"type":"BlogsRead","eventId":"rs","userId":101,"readAt":"2026-01-01T13:00:00Z","blogs":[
                 {"blogId":1001,"authorId":7},{"blogId":2001,"authorId":8},{"blogId":2002,"authorId":8},{"blogId":1001,"authorId":7}]}""");
        publish(2002, 8, "2026-01-01T12:03:00Z");

        assertThat(counts(101).byAuthor()).as("1002 alone: 2002 was read before its delivery")
                .containsExactly(Map.entry(ALICE, 1L));
        assertThat(counts(101).total()).isEqualTo(1);
    }

    @Test
    void shouldLowerOnlyTheReadersCountWhenTheyReadAPost() {
        follow(101, ALICE);
        follow(102, ALICE);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");

        reads.pipeInput("101", """
                {"type":"BlogRead","eventId":"r1","userId":101,"blogId":1001,"authorId":7,"readAt":"2026-01-01T13:00:00Z"}""");

        assertThat(counts(101).total()).isZero();
        assertThat(counts(102).total()).isEqualTo(1);
    }

    @Test
    void shouldRemoveADeletedPostFromEveryFollower() {
        follow(101, ALICE);
        follow(102, ALICE);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T12:01:00Z");

        blogs.pipeInput("7", """
                {"type":"BlogDeleted","eventId":"d1","blogId":1001,"authorId":7,"deletedAt":"2026-01-01T14:00:00Z"}""");

        assertThat(counts(101).total()).isEqualTo(1);
        assertThat(counts(102).total()).isEqualTo(1);
    }

    @Test
    void shouldNeverDeliverABlogWhoseDeleteCameFirstEvenToUsersWhoFollowedInBetween() {
        follow(101, ALICE);
        blogs.pipeInput("7", """
                {"type":"BlogDeleted","eventId":"d1","blogId":1001,"authorId":7,"deletedAt":"2026-01-01T14:00:00Z"}""");
        follow(102, ALICE);

        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T12:01:00Z");

        assertThat(counts(101).total()).isEqualTo(1);
        assertThat(counts(102).total()).as("the late publish of the deleted blog reached nobody").isEqualTo(1);
    }

    @Test
    void shouldForgetTombstonesAfterTheirRetention() {
        follow(101, ALICE);
        blogs.pipeInput("7", """
                {"type":"BlogDeleted","eventId":"d1","blogId":1001,"authorId":7,"deletedAt":"2026-01-01T14:00:00Z"}""");

        driver.advanceWallClockTime(Duration.ofHours(1)); // the hourly sweep; the delete is older than 7 days
        follow(102, ALICE);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(counts(102).total()).as("a tombstone past retention no longer blocks").isEqualTo(1);
        assertThat(counts(101).total()).as("the per-user mark still does").isZero();
    }

    @Test
    void shouldReadAllOfAnAuthorUpToTheGivenMoment() {
        follow(101, ALICE);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T12:30:00Z");

        reads.pipeInput("101", """
                {"type":"AuthorReadAll","eventId":"ra","userId":101,"authorId":7,"readAt":"2026-01-01T12:15:00Z"}""");

        assertThat(counts(101).total()).isEqualTo(1);
    }

    @Test
    void shouldReadAllOfEveryAuthorUpToTheGivenMomentAndKeepLateDeliveriesOfOlderPostsRead() {
        follow(101, ALICE);
        follow(101, 8);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, 8, "2026-01-01T12:10:00Z");
        publish(1003, 8, "2026-01-01T12:30:00Z");

        reads.pipeInput("101", """
                {"type":"AllRead","eventId":"all","userId":101,"readAt":"2026-01-01T12:15:00Z"}""");
        reads.pipeInput("101", """
                {"type":"AllRead","eventId":"all","userId":101,"readAt":"2026-01-01T12:15:00Z"}""");
        publish(1004, ALICE, "2026-01-01T12:05:00Z");

        assertThat(counts(101).byAuthor()).containsExactly(Map.entry(8L, 1L));
    }

    @Test
    void shouldCountAsUnseenOnlyWhatIsPublishedAfterTheInboxWasSeen() {
        follow(101, ALICE);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T12:30:00Z");

        reads.pipeInput("101", """
                {"type":"InboxSeen","eventId":"seen","userId":101,"seenAt":"2026-01-01T12:15:00Z"}""");
        publish(1003, ALICE, "2026-01-01T12:10:00Z");

        assertThat(counts(101).total()).isEqualTo(3);
        assertThat(counts(101).unseen()).as("a late delivery of a post from before seenAt counts as seen").isEqualTo(1);
    }

    @Test
    void shouldStopDeliveringAndDropUnreadOnUnfollow() {
        follow(101, ALICE);
        publish(1001, ALICE, "2026-01-01T12:00:00Z");

        follows.pipeInput("7", """
                {"type":"Unfollowed","eventId":"u1","followerId":101,"authorId":7,"at":"2026-01-01T12:10:00Z"}""");
        publish(1002, ALICE, "2026-01-01T12:20:00Z");

        assertThat(counts(101).total()).isZero();
    }

    /** In time: follow, unfollow, follow again; the second follow processed before the unfollow. */
    @Test
    void shouldFollowAgainWhenTheReFollowWasProcessedBeforeTheUnfollow() {
        follow(101, ALICE, "2026-01-01T10:00:00Z");
        publish(1001, ALICE, "2026-01-01T10:30:00Z");
        follow(101, ALICE, "2026-01-01T12:00:00Z");
        publish(1002, ALICE, "2026-01-01T11:30:00Z"); // while unfollowed, which the graph cannot know yet
        publish(1003, ALICE, "2026-01-01T12:30:00Z");
        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        publish(1004, ALICE, "2026-01-01T13:00:00Z");

        assertThat(fixture.unreadBlogs(101, ALICE)).containsExactly("1003", "1004");
        assertThat(counts(101).total()).isEqualTo(2);
    }

    @Test
    void shouldCountAFollowProcessedLaterAfterItsTimeThanRecentPostsAreKept() {
        Instant now = Instant.ofEpochMilli(System.currentTimeMillis());
        follow(101, ALICE, now.plusSeconds(60).toString());
        follow(102, ALICE, now.minus(Duration.ofDays(2)).toString());

        assertThat(fixture.meter("readmark.follows.late")).isEqualTo(1);
    }

    /** The internal topic is the processor's; a record that something else put on another author's partition stays out. */
    @Test
    void shouldDeadLetterAnAuthorEventOnAnInternalPartitionThatIsNotItsAuthors() throws Exception {
        long author = LongStream.iterate(1, id -> id + 1)
                .filter(id -> AuthorPartitions.of(Long.toString(id).getBytes(StandardCharsets.UTF_8), 2) == 1).findFirst().orElseThrow();
        // The driver runs every topic as one partition, 0: this author belongs on 1 of 2.
        try (TopologyFixture twoPartitions = new TopologyFixture((writers, meters) ->
                UnreadTopology.build(TOPICS, EventTimeLimit.DEFAULT, 2, writers, new ThreadCommits(), FANOUT, meters))) {
            StringSerializer strings = new StringSerializer();
            twoPartitions.driver.createInputTopic(TOPICS.followEvents().name(), strings, strings).pipeInput(Long.toString(author), """
                    {"type":"Followed","eventId":"f-1","followerId":101,"authorId":%d,"at":"2026-01-01T00:00:00Z"}""".formatted(author));

            var rejected = twoPartitions.driver.createOutputTopic(TOPICS.deadLetters().name(), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer()).readRecordsToList();
            assertThat(rejected).hasSize(1);
            assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.CATEGORY)).isEqualTo("partition");
            assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(UnreadTopology.authorEventsTopic("topology-test"));
        }
    }

    /**
     * A read dated far past its record's time would move the user's floor there for good: every later post would be
     * hidden. It is dead-lettered; events within the skew, or dated in the past, still apply.
     */
    @Test
    void shouldDeadLetterAnEventDatedBeyondTheSkewAndApplyLaterPosts() {
        Instant recorded = Instant.parse("2026-06-01T00:00:00Z");
        follow(101, ALICE);
        reads.pipeInput("101", """
                {"type":"AllRead","eventId":"far","userId":101,"readAt":"9999-12-31T23:59:59Z"}""", recorded);
        blogs.pipeInput("7", """
                {"type":"BlogPublished","eventId":"p1","blogId":1001,"authorId":7,"publishedAt":"%s"}"""
                .formatted(recorded.plusSeconds(60)), recorded.plusSeconds(60));
        blogs.pipeInput("7", """
                {"type":"BlogPublished","eventId":"p2","blogId":1002,"authorId":7,"publishedAt":"%s"}"""
                .formatted(recorded.plusSeconds(120)), recorded.plusSeconds(120));

        assertThat(counts(101).total()).as("posts after the refused read still unread").isEqualTo(2);
        var rejected = deadLetters.readRecordsToList();
        assertThat(rejected).hasSize(1);
        assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.CATEGORY)).isEqualTo("field");
        assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.FIELD)).isEqualTo("readAt");
        assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.REASON)).contains("9999-12-31T23:59:59Z", "PT1H");

        reads.pipeInput("101", """
                {"type":"InboxSeen","eventId":"within","userId":101,"seenAt":"%s"}""".formatted(recorded.plus(Duration.ofMinutes(59))),
                recorded);
        reads.pipeInput("101", """
                {"type":"BlogRead","eventId":"past","userId":101,"blogId":1001,"authorId":7,"readAt":"2020-01-01T00:00:00Z"}""",
                recorded);

        assertThat(counts(101).unseen()).as("a seen mark within the skew applies").isZero();
        assertThat(counts(101).total()).as("a read dated in the past applies").isEqualTo(1);
        assertThat(deadLetters.readRecordsToList()).isEmpty();
    }

    @Test
    void shouldDeadLetterBadRecordsWithTheReasonAndKeepGoing() {
        follow(101, ALICE);
        blogs.pipeInput("7", "this is not json");
        blogs.pipeInput("7", """
                {"type":"BlogPublished","eventId":"x","authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""");
        blogs.pipeInput("7", """
                {"type":"BlogRead","eventId":"y","userId":101,"blogId":1,"authorId":7,"readAt":"2026-01-01T12:00:00Z"}""");
        blogs.pipeInput("8", """
                {"type":"BlogPublished","eventId":"z","blogId":5,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""");
        blogs.pipeInput((String) null, """
                {"type":"BlogPublished","eventId":"n","blogId":6,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""");
        publish(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(counts(101).total()).as("the valid event after the bad ones still applied").isEqualTo(1);
        var rejected = deadLetters.readRecordsToList();
        assertThat(rejected).hasSize(5);
        assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.REASON)).contains("JSON");
        assertThat(new String(rejected.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("this is not json");
        assertThat(TopologyInputs.header(rejected.get(1), DeadLetterHeaders.FIELD)).isEqualTo("blogId");
        assertThat(TopologyInputs.header(rejected.get(2), DeadLetterHeaders.FIELD)).isEqualTo("type");
        assertThat(TopologyInputs.header(rejected.get(3), DeadLetterHeaders.FIELD)).isEqualTo("key");
        assertThat(TopologyInputs.header(rejected.get(4), DeadLetterHeaders.REASON)).contains("null");
        assertThat(rejected).allSatisfy(record -> {
            assertThat(TopologyInputs.header(record, DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo("blog-events");
            assertThat(TopologyInputs.header(record, DeadLetterHeaders.SOURCE_PARTITION)).isEqualTo("0");
            assertThat(TopologyInputs.header(record, DeadLetterHeaders.SOURCE_OFFSET)).matches("\\d+");
        });
        assertThat(fixture.meter("readmark.dlq.records", "topic", "blog-events", "reason", "malformed")).isEqualTo(1);
        assertThat(fixture.meter("readmark.dlq.records", "topic", "blog-events", "reason", "field")).isEqualTo(1);
        assertThat(fixture.meter("readmark.dlq.records", "topic", "blog-events", "reason", "type")).isEqualTo(1);
        assertThat(fixture.meter("readmark.dlq.records", "topic", "blog-events", "reason", "key")).isEqualTo(2);
        assertThat(rejected).extracting(record -> TopologyInputs.header(record, DeadLetterHeaders.CATEGORY))
                .containsExactly("malformed", "field", "type", "key", "key");
    }

    @Test
    void shouldDeadLetterPayloadsThatDecodeToNothingOrOverflowTheClockInsteadOfFailingTheThread() {
        follow(101, ALICE);
        blogs.pipeInput("7", "null");
        reads.pipeInput("101", """
                {"type":"AuthorReadAll","eventId":"far","userId":101,"authorId":7,"readAt":"+999999999-12-31T23:59:59Z"}""");
        follows.pipeInput("7", """
                {"type":"Followed","eventId":"f","followerId":102,"authorId":7,"at":"-999999999-01-01T00:00:00Z"}""");
        publish(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(counts(101).total()).as("the valid event after the bad ones still applied").isEqualTo(1);
        assertThat(deadLetters.readRecordsToList())
                .extracting(record -> TopologyInputs.header(record, DeadLetterHeaders.CATEGORY), record -> TopologyInputs.header(record, DeadLetterHeaders.FIELD))
                .containsExactly(tuple("malformed", null), tuple("field", "readAt"), tuple("field", "at"));
    }

    @Test
    void shouldDeadLetterAnEventLargerThanTheMaximumEventSizeAsOversize() {
        follow(101, ALICE);
        String padded = """
                {"type":"BlogPublished","eventId":"big","blogId":1001,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z","pad":"%s"}""";
        String atTheLimit = padded.formatted("x".repeat(Topics.MAX_EVENT_BYTES - padded.length() + 2));
        String overTheLimit = padded.formatted("x".repeat(Topics.MAX_EVENT_BYTES - padded.length() + 3)).replace("1001", "1002");
        assertThat(atTheLimit.getBytes(StandardCharsets.UTF_8)).hasSize(Topics.MAX_EVENT_BYTES);

        blogs.pipeInput("7", atTheLimit);
        blogs.pipeInput("7", overTheLimit);

        assertThat(fixture.counts(101).byAuthor()).containsExactly(Map.entry(ALICE, 1L));
        var rejected = deadLetters.readRecordsToList();
        assertThat(rejected).hasSize(1);
        assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.CATEGORY)).isEqualTo("oversize");
        assertThat(rejected.get(0).value()).isEqualTo(overTheLimit.getBytes(StandardCharsets.UTF_8));
        assertThat(fixture.meter("readmark.dlq.records", "topic", "blog-events", "reason", "oversize")).isEqualTo(1);
    }

    @Test
    void shouldKeepEveryDeadLetterCopyWithinOneKafkaRecord() {
        follow(101, ALICE);
        // A record the broker took, just under 1 MiB: with the dead-letter headers added it would not fit any more.
        byte[] nearTheLimit = new byte[1_048_400];
        Arrays.fill(nearTheLimit, (byte) 'x');
        driver.createInputTopic(TOPICS.blogEvents().name(), new StringSerializer(), new ByteArraySerializer())
                .pipeInput("7", nearTheLimit);
        // A type name that a reason quoting it in full would make too long for a header.
        String longType = "T".repeat(50_000);
        blogs.pipeInput("7", """
                {"type":"%s","eventId":"t","blogId":1,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""".formatted(longType));
        publish(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(counts(101).total()).isEqualTo(1);
        var rejected = deadLetters.readRecordsToList();
        assertThat(rejected).hasSize(2);
        TestRecord<byte[], byte[]> truncated = rejected.get(0);
        assertThat(TopologyInputs.header(truncated, DeadLetterHeaders.CATEGORY)).isEqualTo("oversize");
        assertThat(TopologyInputs.header(truncated, DeadLetterHeaders.TRUNCATED)).startsWith("key 1 bytes, value 1048400 bytes");
        assertThat(truncated.value()).isEqualTo(Arrays.copyOf(nearTheLimit, DeadLetterCopy.KEPT_PREFIX_BYTES));
        assertThat(TopologyInputs.header(truncated, DeadLetterHeaders.SOURCE_OFFSET)).isNotNull();
        TestRecord<byte[], byte[]> quoting = rejected.get(1);
        assertThat(TopologyInputs.header(quoting, DeadLetterHeaders.CATEGORY)).isEqualTo("type");
        assertThat(TopologyInputs.header(quoting, DeadLetterHeaders.REASON)).hasSizeLessThan(600).contains("T".repeat(32) + "…");
        assertThat(TopologyInputs.header(quoting, DeadLetterHeaders.TRUNCATED)).as("the copy itself fits").isNull();
    }
}
