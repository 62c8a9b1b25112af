package io.readmark.processor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.BigVPolicy;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.FanoutChunk;
import io.readmark.schemas.Topics;
import io.readmark.store.unread.UnreadChanges;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.readmark.processor.deadletters.DeadLetters;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.LoggerFactory;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static io.readmark.processor.RecordingChanges.audienceJoined;
import static io.readmark.processor.RecordingChanges.audienceLeft;
import static io.readmark.processor.RecordingChanges.noticePublished;
import static io.readmark.processor.RecordingChanges.noticeRead;
import static io.readmark.processor.RecordingChanges.noticeSent;
import static io.readmark.processor.RecordingChanges.noticeWithdrawn;
import static io.readmark.processor.RecordingChanges.noticesAllRead;
import static io.readmark.processor.RecordingChanges.FLUSH;
import static io.readmark.processor.RecordingChanges.deliver;
import static io.readmark.processor.RecordingChanges.follow;
import static io.readmark.processor.RecordingChanges.allRead;
import static io.readmark.processor.RecordingChanges.inboxSeen;
import static io.readmark.processor.RecordingChanges.readAll;
import static io.readmark.processor.RecordingChanges.remove;
import static io.readmark.processor.RecordingChanges.unfollow;
import static io.readmark.processor.RecordingChanges.unfollowBefore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The main topology in a TopologyTestDriver, its unread writes recorded in order: which writes each event makes,
 * with no Redis and no broker. The driver runs every topic as partition 0, so the topology is built with one
 * internal author partition; the records still take the internal re-partitioning hop.
 */
class UnreadTopologyTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final long ALICE = 7;
    private static final long BOB = 8;
    private static final String BEFORE = "2026-01-01T00:00:00Z";
    private static final FanoutSettings FANOUT =
            new FanoutSettings(BigVPolicy.withThreshold(1_000), 100, 4, Duration.ofMillis(50), Duration.ofDays(7), Duration.ofDays(1));

    private final RecordingChanges writes = new RecordingChanges();
    private TopologyTestDriver driver;
    private TopologyInputs inputs;

    @BeforeEach
    void startDriver() {
        driver = startDriver(1, FANOUT);
    }

    private TopologyTestDriver startDriver(int authorPartitions, FanoutSettings fanout) {
        TopologyTestDriver started = TestDrivers.start(UnreadTopology.build(TOPICS, EventTimeLimit.DEFAULT, authorPartitions, writes, new ThreadCommits(),
                fanout, new ProcessorMeters(new SimpleMeterRegistry())));
        inputs = new TopologyInputs(started, TOPICS);
        return started;
    }

    /** A driver where three followers make an author big-V, chunks of two followers; its fan-out topic. */
    private TestOutputTopic<byte[], byte[]> startBigVDriver() {
        driver.close();
        driver = startDriver(1, new FanoutSettings(new BigVPolicy(3, 2), 2, 4, Duration.ofMillis(50), Duration.ofDays(7),
                Duration.ofDays(1)));
        return driver.createOutputTopic(TOPICS.fanoutChunks().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    private void followed(long follower, long author) {
        inputs.followed(follower, author, BEFORE);
    }

    /** A first follow is the follower graph's alone: Redis learns of follows only after an unfollow of the pair. */
    @Test
    void shouldWriteNothingToRedisForAFirstFollowAndFlushAfterEveryEvent() {
        followed(101, ALICE);
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(writes.calls()).containsExactly(FLUSH, deliver(101, ALICE, 1001, "2026-01-01T12:00:00Z"), FLUSH);
    }

    @Test
    void shouldDeliverAPostToEveryFollowerWhoFollowedBeforeItButNeverToTheAuthor() {
        followed(102, ALICE);
        followed(101, ALICE);
        followed(ALICE, ALICE);
        followed(103, BOB);
        inputs.followed(104, ALICE, "2026-01-01T12:30:00Z");
        writes.takeWrites();

        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(writes.calls()).as("in walk order (by Redis slot: 102, 101), sent at once").containsExactly(
                deliver(102, ALICE, 1001, "2026-01-01T12:00:00Z"),
                deliver(101, ALICE, 1001, "2026-01-01T12:00:00Z"),
                FLUSH);
        assertThat(writes.deliveryGroups()).as("in one call").containsExactly(2);
    }

    @Test
    void shouldDeliverAPostInGroupsOfAsManyFollowersAsOneScriptTakes() {
        int followers = UnreadChanges.MAX_USERS_PER_CALL * 2 + 5;
        for (long follower = 1_000; follower < 1_000 + followers; follower++) followed(follower, ALICE);
        writes.takeWrites();

        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(writes.writes()).hasSize(followers);
        assertThat(writes.deliveryGroups()).containsExactly(UnreadChanges.MAX_USERS_PER_CALL, UnreadChanges.MAX_USERS_PER_CALL, 5);
    }

    @Test
    void shouldDeleteAPostInGroupsOfAsManyFollowersAsOneScriptTakes() {
        int followers = UnreadChanges.MAX_USERS_PER_CALL + 3;
        for (long follower = 1_000; follower < 1_000 + followers; follower++) followed(follower, ALICE);
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");
        writes.takeWrites();

        inputs.deleted(1001, ALICE, "2026-01-01T13:00:00Z");

        assertThat(writes.writes()).hasSize(followers).allMatch(write -> write.startsWith("remove "));
        assertThat(writes.deleteGroups()).containsExactly(UnreadChanges.MAX_USERS_PER_CALL, 3);
    }

    /** A publish processed again after a later follow, as after a crash or from a producer that sent it twice. */
    @Test
    void shouldNotDeliverAPublishProcessedAgainToSomeoneWhoFollowedAfterIt() {
        inputs.followed(101, ALICE, "2026-01-01T11:00:00Z");
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");
        inputs.followed(102, ALICE, "2026-01-01T12:05:00Z");
        writes.takeWrites();

        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(writes.writes()).containsExactly(deliver(101, ALICE, 1001, "2026-01-01T12:00:00Z"));
    }

    @Test
    void shouldRemoveADeletedPostFromEveryCurrentFollowerAndNeverDeliverItAgain() {
        followed(101, ALICE);
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");
        inputs.followed(102, ALICE, "2026-01-01T13:00:00Z");
        writes.takeWrites();

        inputs.deleted(1001, ALICE, "2026-01-01T14:00:00Z");
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(writes.writes()).as("the publish after its delete delivers nothing; those who followed before it "
                + "get the delete again").containsExactly(
                remove(102, ALICE, 1001, "2026-01-01T14:00:00Z"),
                remove(101, ALICE, 1001, "2026-01-01T14:00:00Z"),
                remove(101, ALICE, 1001, "2026-01-01T14:00:00Z"));
    }

    /**
     * Whatever order a follow, a post after it and the post's delete are processed in, the follower gets the delete
     * and no delivery after it: an earlier run that processed them in another order (a rebuild stopped midway) may
     * have delivered the post, and this run must take it back.
     */
    @Test
    void shouldSendTheDeleteToAnEarlierFollowerInEveryOrderOfFollowPublishAndDelete() {
        Map<String, Runnable> events = new LinkedHashMap<>();
        events.put("follow", () -> inputs.followed(101, ALICE, "2026-01-01T11:00:00Z"));
        events.put("publish", () -> inputs.published(1001, ALICE, "2026-01-01T12:00:00Z"));
        events.put("delete", () -> inputs.deleted(1001, ALICE, "2026-01-01T14:00:00Z"));
        for (List<String> order : permutations(List.copyOf(events.keySet()))) {
            driver.close();
            driver = startDriver(1, FANOUT);
            writes.takeWrites();
            order.forEach(event -> events.get(event).run());

            List<String> sent = writes.writes();
            assertThat(sent).as("%s", order).contains(remove(101, ALICE, 1001, "2026-01-01T14:00:00Z"));
            assertThat(sent.getLast()).as("%s", order).isEqualTo(remove(101, ALICE, 1001, "2026-01-01T14:00:00Z"));
        }
    }

    private static List<List<String>> permutations(List<String> items) {
        if (items.isEmpty()) return List.of(List.of());
        List<List<String>> all = new ArrayList<>();
        for (String first : items) {
            List<String> rest = new ArrayList<>(items);
            rest.remove(first);
            for (List<String> tail : permutations(rest)) {
                List<String> order = new ArrayList<>(List.of(first));
                order.addAll(tail);
                all.add(order);
            }
        }
        return all;
    }

    @Test
    void shouldApplyAReadAndAReadAllOfTheirUserOnly() {
        inputs.reads.pipeInput("101", """
                {"type":"BlogRead","eventId":"r1","userId":101,"blogId":1001,"authorId":7,"readAt":"2026-01-01T13:00:00Z"}""");
        inputs.reads.pipeInput("101", """
                {"type":"AuthorReadAll","eventId":"ra","userId":101,"authorId":7,"readAt":"2026-01-01T12:15:00Z"}""");

        assertThat(writes.calls()).containsExactly(
                remove(101, ALICE, 1001, "2026-01-01T13:00:00Z"), FLUSH,
                readAll(101, ALICE, "2026-01-01T12:15:00Z"), FLUSH);
    }

    /** One blog read per listed blog, duplicates included, then one flush: the writer pipelines them. */
    @Test
    void shouldApplyAListOfReadsAsOneReadPerBlogFlushedTogether() {
        inputs.reads.pipeInput("101", """
                {"type":"BlogsRead","eventId":"rs","userId":101,"readAt":"2026-01-01T13:00:00Z",
                 "blogs":[{"blogId":1001,"authorId":7},{"blogId":2001,"authorId":8},{"blogId":1001,"authorId":7}]}""");

        assertThat(writes.calls()).containsExactly(
                remove(101, ALICE, 1001, "2026-01-01T13:00:00Z"), remove(101, BOB, 2001, "2026-01-01T13:00:00Z"),
                remove(101, ALICE, 1001, "2026-01-01T13:00:00Z"), FLUSH);
    }

    @Test
    void shouldDeadLetterAListOfReadsWithABadBlogNamingItWithoutWriting() {
        inputs.reads.pipeInput("101", """
                {"type":"BlogsRead","eventId":"rs","userId":101,"readAt":"2026-01-01T13:00:00Z",
                 "blogs":[{"blogId":1001,"authorId":7},{"blogId":1002,"authorId":0}]}""");

        assertThat(writes.writes()).isEmpty();
        assertThat(inputs.deadLetters.readRecordsToList())
                .extracting(record -> TopologyInputs.header(record, DeadLetterHeaders.FIELD),
                        record -> TopologyInputs.header(record, DeadLetterHeaders.CATEGORY))
                .containsExactly(tuple("blogs[1].authorId", "field"));
    }

    @Test
    void shouldApplyAnAllReadAndAnInboxSeenOfTheirUserOnly() {
        inputs.reads.pipeInput("101", """
                {"type":"AllRead","eventId":"all","userId":101,"readAt":"2026-01-01T12:15:00Z"}""");
        inputs.reads.pipeInput("101", """
                {"type":"InboxSeen","eventId":"seen","userId":101,"seenAt":"2026-01-01T12:20:00Z"}""");

        assertThat(writes.calls()).containsExactly(
                allRead(101, "2026-01-01T12:15:00Z"), FLUSH,
                inboxSeen(101, "2026-01-01T12:20:00Z"), FLUSH);
    }

    @Test
    void shouldDropTheUnreadOfAnUnfollowAndStopDelivering() {
        followed(101, ALICE);
        followed(102, ALICE);
        writes.takeWrites();

        inputs.unfollowed(101, ALICE, "2026-01-01T12:10:00Z");
        inputs.published(1002, ALICE, "2026-01-01T12:20:00Z");

        assertThat(writes.writes()).containsExactly(
                unfollow(101, ALICE, "2026-01-01T12:10:00Z"),
                deliver(102, ALICE, 1002, "2026-01-01T12:20:00Z"));
    }

    /**
     * Redis learns of a follow after an unfollow (again when it is replayed): it then accepts the author's later posts
     * again. A replayed follow from before the re-follow changes nothing; a replayed unfollow from before it tells Redis
     * of both again (a crash may have lost them, and Redis ignores what it already has).
     */
    @Test
    void shouldTellRedisOfAFollowAgainAfterAnUnfollowAndDeliverOnlyPostsAfterIt() {
        inputs.followed(101, ALICE, "2026-01-01T10:00:00Z");
        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        inputs.followed(101, ALICE, "2026-01-01T12:00:00Z");
        inputs.followed(101, ALICE, "2026-01-01T12:00:00Z");
        inputs.followed(101, ALICE, "2026-01-01T10:00:00Z");
        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        inputs.published(1001, ALICE, "2026-01-01T11:30:00Z");
        inputs.published(1002, ALICE, "2026-01-01T12:30:00Z");

        assertThat(writes.writes()).containsExactly(
                unfollow(101, ALICE, "2026-01-01T11:00:00Z"),
                follow(101, ALICE, "2026-01-01T12:00:00Z"),
                follow(101, ALICE, "2026-01-01T12:00:00Z"),
                unfollowBefore(101, ALICE, "2026-01-01T11:00:00Z", "2026-01-01T12:00:00Z"),
                deliver(101, ALICE, 1002, "2026-01-01T12:30:00Z"));
    }

    /**
     * A re-follow processed before the unfollow it comes after (a producer that spreads a pair's events over
     * partitions): the unfollow, when it comes, goes to Redis with the re-follow, which keeps what was delivered after it,
     * and the recent posts after the re-follow are sent again (for what another order's unfollow may have refused).
     */
    @Test
    void shouldFollowAgainWhenTheReFollowWasProcessedBeforeTheUnfollow() {
        inputs.followed(101, ALICE, "2026-01-01T10:00:00Z");
        inputs.followed(101, ALICE, "2026-01-01T12:00:00Z");
        inputs.published(1001, ALICE, "2026-01-01T11:30:00Z");
        inputs.published(1002, ALICE, "2026-01-01T12:30:00Z");
        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        inputs.published(1003, ALICE, "2026-01-01T13:00:00Z");

        assertThat(writes.writes()).containsExactly(
                deliver(101, ALICE, 1001, "2026-01-01T11:30:00Z"),
                deliver(101, ALICE, 1002, "2026-01-01T12:30:00Z"),
                unfollowBefore(101, ALICE, "2026-01-01T11:00:00Z", "2026-01-01T12:00:00Z"),
                deliver(101, ALICE, 1002, "2026-01-01T12:30:00Z"),
                deliver(101, ALICE, 1003, "2026-01-01T13:00:00Z"));
    }

    /**
     * An unfollow older than the one the re-follow came after (a producer's retry, a replay of older events) sends
     * nothing: that one sent what this could, and the recent posts after the re-follow. That one replayed is sent again.
     */
    @Test
    void shouldSendNothingForAnUnfollowOlderThanTheOneTheReFollowCameAfter() {
        inputs.followed(101, ALICE, "2026-01-01T10:00:00Z");
        inputs.followed(101, ALICE, "2026-01-01T12:00:00Z");
        inputs.published(1001, ALICE, "2026-01-01T12:30:00Z");
        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        writes.takeWrites();

        inputs.unfollowed(101, ALICE, "2026-01-01T10:30:00Z");
        assertThat(writes.takeWrites()).isEmpty();

        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        assertThat(writes.writes()).as("a crash may have lost what it sent").containsExactly(
                unfollowBefore(101, ALICE, "2026-01-01T11:00:00Z", "2026-01-01T12:00:00Z"),
                deliver(101, ALICE, 1001, "2026-01-01T12:30:00Z"));
    }

    /**
     * In time: follow, post, unfollow, post, re-follow; processed re-follow, then the unfollow, older than the follow
     * the graph has: Redis hears of that follow as a re-follow after the unfollow, and so refuses the posts the first
     * follow, processed last, then sends (FollowOrderIT shows the end state on a real Redis).
     */
    @Test
    void shouldTellRedisOfAFollowAsARefollowWhenAnOlderUnfollowComesAfterIt() {
        inputs.published(1001, ALICE, "2026-01-01T10:30:00Z");
        inputs.published(1002, ALICE, "2026-01-01T11:30:00Z");
        inputs.followed(101, ALICE, "2026-01-01T12:00:00Z");
        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        inputs.followed(101, ALICE, "2026-01-01T10:00:00Z");
        inputs.published(1003, ALICE, "2026-01-01T12:30:00Z");

        assertThat(writes.writes()).as("the follow at 10:00 comes before the unfollow it was processed after: stale")
                .containsExactly(
                        unfollowBefore(101, ALICE, "2026-01-01T11:00:00Z", "2026-01-01T12:00:00Z"),
                        deliver(101, ALICE, 1003, "2026-01-01T12:30:00Z"));
    }

    /** An unfollow processed before the follow it undoes (a producer that spreads an author's follows at random). */
    @Test
    void shouldKeepAnUnfollowThatOvertookItsFollow() {
        inputs.unfollowed(101, ALICE, "2026-01-01T11:00:00Z");
        inputs.followed(101, ALICE, "2026-01-01T10:00:00Z");
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(writes.writes()).containsExactly(unfollow(101, ALICE, "2026-01-01T11:00:00Z"));
    }

    /**
     * A follow processed after posts published after it gets them from the recent posts, right after the follow
     * itself, and on every repeat of the follow; not posts published before it, nor its own posts; the delete of a
     * deleted one.
     */
    @Test
    void shouldDeliverThePostsPublishedAfterAFollowThatWereProcessedBeforeIt() {
        inputs.published(1000, ALICE, "2026-01-01T10:00:00Z");
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");
        inputs.published(1002, ALICE, "2026-01-01T12:05:00Z");
        inputs.deleted(1002, ALICE, "2026-01-01T12:10:00Z");
        assertThat(writes.takeWrites()).as("nobody followed yet").isEmpty();

        inputs.followed(102, ALICE, "2026-01-01T11:00:00Z");
        inputs.followed(102, ALICE, "2026-01-01T11:00:00Z");
        inputs.followed(ALICE, ALICE, "2026-01-01T11:00:00Z");

        assertThat(writes.writes()).containsExactly(
                deliver(102, ALICE, 1001, "2026-01-01T12:00:00Z"),
                remove(102, ALICE, 1002, "2026-01-01T12:10:00Z"),
                deliver(102, ALICE, 1001, "2026-01-01T12:00:00Z"),
                remove(102, ALICE, 1002, "2026-01-01T12:10:00Z"));
    }

    @Test
    void shouldDeadLetterBadRecordsWithoutWritingAndKeepGoing() {
        followed(101, ALICE);
        writes.takeWrites();
        inputs.blogs.pipeInput("7", "this is not json");
        inputs.blogs.pipeInput("7", """
                {"type":"BlogPublished","eventId":"x","authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""");
        inputs.blogs.pipeInput("8", """
                {"type":"BlogPublished","eventId":"z","blogId":5,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""");
        inputs.reads.pipeInput("101", """
                {"type":"BlogPublished","eventId":"y","blogId":6,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""");
        inputs.follows.pipeInput("7", "null");
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(writes.writes()).as("only the valid event after the bad ones")
                .containsExactly(deliver(101, ALICE, 1001, "2026-01-01T12:00:00Z"));
        assertThat(inputs.deadLetters.readRecordsToList())
                .extracting(record -> TopologyInputs.header(record, DeadLetterHeaders.SOURCE_TOPIC), record -> TopologyInputs.header(record, DeadLetterHeaders.CATEGORY))
                .containsExactly(
                        tuple("blog-events", "malformed"),
                        tuple("blog-events", "field"),
                        tuple("blog-events", "key"),
                        tuple("read-events", "type"),
                        tuple("follow-events", "malformed"));
    }

    @Test
    void shouldDeadLetterAnEventThatGivesAKeyTwiceNamingTheKey() {
        inputs.reads.pipeInput("101", """
                {"type":"AllRead","eventId":"twice","userId":102,"userId":101,"readAt":"2026-01-01T12:15:00Z"}""");

        assertThat(writes.writes()).isEmpty();
        List<TestRecord<byte[], byte[]>> rejected = inputs.deadLetters.readRecordsToList();
        assertThat(rejected).extracting(record -> TopologyInputs.header(record, DeadLetterHeaders.CATEGORY),
                        record -> TopologyInputs.header(record, DeadLetterHeaders.FIELD))
                .containsExactly(tuple("field", "userId"));
    }

    @Test
    void shouldLogARejectedRecordKeyWithALineBreakOnOneLine() {
        ListAppender<ILoggingEvent> recorded = new ListAppender<>();
        recorded.start();
        Logger deadLetterLog = (Logger) LoggerFactory.getLogger(DeadLetters.class);
        deadLetterLog.addAppender(recorded);
        try {
            inputs.reads.pipeInput("101\n2026-01-01 ERROR forged", """
                    {"type":"AllRead","eventId":"k","userId":101,"readAt":"2026-01-01T12:15:00Z"}""");
        } finally {
            deadLetterLog.detachAppender(recorded);
        }

        assertThat(recorded.list).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("'101\\n2026-01-01 ERROR forged'").doesNotContain("\n");
    }

    /** Follow and blog events reach the follower graph through the internal topic, re-partitioned by author. */
    @Test
    void shouldReachTheFollowerGraphThroughTheInternalAuthorTopic() {
        followed(101, ALICE);
        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");

        assertThat(driver.producedTopicNames()).contains(UnreadTopology.authorEventsTopic(TestDrivers.APPLICATION_ID));
        assertThat(writes.writes()).containsExactly(deliver(101, ALICE, 1001, "2026-01-01T12:00:00Z"));
    }

    /** The internal topic is the processor's; a record that something else put on another author's partition stays out. */
    @Test
    void shouldDeadLetterAnAuthorEventOnAnInternalPartitionThatIsNotItsAuthors() {
        driver.close();
        driver = startDriver(2, FANOUT);
        long author = LongStream.iterate(1, id -> id + 1)
                .filter(id -> AuthorPartitions.of(Long.toString(id).getBytes(StandardCharsets.UTF_8), 2) == 1).findFirst().orElseThrow();

        followed(101, author);

        assertThat(writes.calls()).as("nothing applied against the wrong graph").isEmpty();
        List<TestRecord<byte[], byte[]>> rejected = inputs.deadLetters.readRecordsToList();
        assertThat(rejected).hasSize(1);
        assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.CATEGORY)).isEqualTo("partition");
        assertThat(TopologyInputs.header(rejected.get(0), DeadLetterHeaders.SOURCE_TOPIC))
                .isEqualTo(UnreadTopology.authorEventsTopic(TestDrivers.APPLICATION_ID));
    }

    /** A big-V author's post leaves as chunks on the fan-out topic; nothing is delivered inline. */
    @Test
    void shouldHandABigVPublishToTheFanoutTopicInsteadOfDelivering() {
        TestOutputTopic<byte[], byte[]> chunks = startBigVDriver();
        LongStream.rangeClosed(101, 103).forEach(follower -> followed(follower, ALICE));
        writes.takeWrites();

        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");
        driver.advanceWallClockTime(Duration.ofMillis(50));

        assertThat(writes.writes()).isEmpty();
        assertThat(chunks.readValuesToList()).map(Topics.CHUNK_SERDE::decode).extracting(FanoutChunk::followerIds)
                .as("in walk order: by Redis slot").containsExactly(List.of(103L, 102L), List.of(101L));
    }

    /**
     * A big-V publish processed after its delete starts the removal again from the first follower, also while the
     * delete's removal is still running: its walk passed a follower whose follow (older than the post) came later.
     */
    @Test
    void shouldStartABigVRemovalAgainWhenThePublishIsProcessedAfterItsDelete() {
        TestOutputTopic<byte[], byte[]> chunks = startBigVDriver();
        LongStream.rangeClosed(102, 104).forEach(follower -> followed(follower, ALICE));
        inputs.deleted(1001, ALICE, "2026-01-01T14:00:00Z");
        driver.advanceWallClockTime(Duration.ofMillis(50));
        assertThat(chunks.readValuesToList()).map(Topics.CHUNK_SERDE::decode).extracting(FanoutChunk::followerIds)
                .containsExactly(List.of(103L, 102L), List.of(104L));
        followed(101, ALICE);

        inputs.published(1001, ALICE, "2026-01-01T12:00:00Z");
        driver.advanceWallClockTime(Duration.ofMillis(50));

        assertThat(writes.writes()).isEmpty();
        assertThat(chunks.readValuesToList()).map(Topics.CHUNK_SERDE::decode)
                .extracting(FanoutChunk::kind, FanoutChunk::followerIds)
                .containsExactly(tuple(FanoutChunk.Kind.REMOVE, List.of(103L, 102L)), tuple(FanoutChunk.Kind.REMOVE, List.of(101L, 104L)));
    }

    @Test
    void shouldApplyBroadcastsAsOneWriteAndMembershipsToTheirMember() {
        inputs.notices.pipeInput("staff", """
                {"type":"NoticePublished","eventId":"n1","noticeId":501,"audience":"staff","publishedAt":"2026-01-01T12:00:00Z",
                 "expiresAt":"2026-01-02T12:00:00Z"}""");
        inputs.notices.pipeInput("staff", """
                {"type":"AudienceJoined","eventId":"j1","userId":101,"audience":"staff","at":"2026-01-01T11:00:00Z"}""");
        inputs.notices.pipeInput("staff", """
                {"type":"AudienceLeft","eventId":"l1","userId":101,"audience":"staff","at":"2026-01-01T13:00:00Z"}""");
        inputs.notices.pipeInput("staff", """
                {"type":"NoticeWithdrawn","eventId":"w1","noticeId":501,"audience":"staff","withdrawnAt":"2026-01-01T14:00:00Z"}""");

        assertThat(writes.calls()).containsExactly(
                noticePublished("staff", 501, "2026-01-01T12:00:00Z", "2026-01-02T12:00:00Z"), FLUSH,
                audienceJoined(101, "staff", "2026-01-01T11:00:00Z"), FLUSH,
                audienceLeft(101, "staff", "2026-01-01T13:00:00Z"), FLUSH,
                noticeWithdrawn("staff", 501, "2026-01-01T14:00:00Z"), FLUSH);
    }

    @Test
    void shouldSendATargetedNoticeToEachRecipientAndApplyNoticeReads() {
        inputs.notices.pipeInput("502", """
                {"type":"NoticeSent","eventId":"s1","noticeId":502,"recipientIds":[101,102],"sentAt":"2026-01-01T12:00:00Z"}""");
        inputs.reads.pipeInput("101", """
                {"type":"NoticeRead","eventId":"nr","userId":101,"noticeId":502,"readAt":"2026-01-01T12:05:00Z"}""");
        inputs.reads.pipeInput("102", """
                {"type":"NoticesAllRead","eventId":"nar","userId":102,"readAt":"2026-01-01T12:10:00Z"}""");

        assertThat(writes.writes()).containsExactly(
                noticeSent(101, 502, "2026-01-01T12:00:00Z"), noticeSent(102, 502, "2026-01-01T12:00:00Z"),
                noticeRead(101, 502, "2026-01-01T12:05:00Z"), noticesAllRead(102, "2026-01-01T12:10:00Z"));
    }

    /** Above the inline threshold a send leaves as chunks on the fan-out topic, like a big-V fan-out. */
    @Test
    void shouldHandAMassSendToTheFanoutTopicInsteadOfWritingInline() {
        driver.close();
        driver = startDriver(1, new FanoutSettings(BigVPolicy.withThreshold(1_000), 2, 4, Duration.ofMillis(50), Duration.ofDays(7),
                Duration.ofDays(1), 2));
        TestOutputTopic<byte[], byte[]> chunks = driver.createOutputTopic(TOPICS.fanoutChunks().name(),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());

        inputs.notices.pipeInput("502", """
                {"type":"NoticeSent","eventId":"s1","noticeId":502,"recipientIds":[101,102],"sentAt":"2026-01-01T12:00:00Z"}""");
        inputs.notices.pipeInput("503", """
                {"type":"NoticeSent","eventId":"s2","noticeId":503,"recipientIds":[101,102,103,104,105],"sentAt":"2026-01-01T12:00:00Z"}""");

        assertThat(writes.writes()).as("two recipients are within the threshold").containsExactly(
                noticeSent(101, 502, "2026-01-01T12:00:00Z"), noticeSent(102, 502, "2026-01-01T12:00:00Z"));
        List<FanoutChunk> sent = chunks.readValuesToList().stream().map(Topics.CHUNK_SERDE::decode).toList();
        assertThat(sent).extracting(FanoutChunk::followerIds).containsExactly(List.of(101L, 102L), List.of(103L, 104L), List.of(105L));
        assertThat(sent).allSatisfy(chunk -> {
            assertThat(chunk.kind()).isEqualTo(FanoutChunk.Kind.NOTICE);
            assertThat(chunk.blogId()).isEqualTo(503);
            assertThat(chunk.jobFollowers()).isEqualTo(5);
        });
    }

    @Test
    void shouldDeadLetterBadNoticeEventsWithTheirReason() {
        inputs.notices.pipeInput("everyone", """
                {"type":"AudienceJoined","eventId":"j","userId":101,"audience":"everyone","at":"2026-01-01T11:00:00Z"}""");
        inputs.notices.pipeInput("other", """
                {"type":"NoticePublished","eventId":"n","noticeId":1,"audience":"staff","publishedAt":"2026-01-01T12:00:00Z"}""");
        inputs.notices.pipeInput("1", """
                {"type":"NoticeSent","eventId":"s","noticeId":1,"recipientIds":[5,5],"sentAt":"2026-01-01T12:00:00Z"}""");
        inputs.notices.pipeInput("101", """
                {"type":"NoticeRead","eventId":"r","userId":101,"noticeId":1,"readAt":"2026-01-01T12:00:00Z"}""");
        inputs.reads.pipeInput("staff", """
                {"type":"NoticePublished","eventId":"n","noticeId":1,"audience":"staff","publishedAt":"2026-01-01T12:00:00Z"}""");
        inputs.notices.pipeInput("staff", """
                {"type":"NoticePublished","eventId":"n2","noticeId":2,"audience":"staff","publishedAt":"2026-01-01T12:00:00Z"}""");

        assertThat(writes.writes()).as("only the valid event after the bad ones")
                .containsExactly(noticePublished("staff", 2, "2026-01-01T12:00:00Z", null));
        assertThat(inputs.deadLetters.readRecordsToList())
                .extracting(record -> TopologyInputs.header(record, DeadLetterHeaders.SOURCE_TOPIC), record -> TopologyInputs.header(record, DeadLetterHeaders.CATEGORY))
                .containsExactly(
                        tuple("notice-events", "field"),
                        tuple("notice-events", "key"),
                        tuple("notice-events", "field"),
                        tuple("notice-events", "type"),
                        tuple("read-events", "type"));
    }
}
