package io.readmark.processor;

import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.fanout.FanoutJob;
import io.readmark.processor.fanout.FanoutJobs;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.BigVPolicy;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.FanoutChunk;
import io.readmark.schemas.Topics;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The big-V path of the main topology in a TopologyTestDriver: classification with hysteresis, chunked and
 * emission of fan-out chunks with progress saved only for durable chunks, and deletes during a fan-out. Commits
 * are simulated through {@link ThreadCommits}, as the driver has no real producer to flush; resuming after a real
 * crash is tested end to end in the launcher.
 */
class BigVFanoutTopologyIT {

    private static final Topics TOPICS = Topics.defaults();
    private static final long BIGV = 7;
    private static final int THRESHOLD = 100;
    private static final int CHUNK = 40;
    private static final Duration TICK = Duration.ofMillis(50);

    private final ThreadCommits commits = new ThreadCommits();
    private TopologyFixture fixture;
    private TopologyTestDriver driver;
    private TestInputTopic<String, String> follows;
    private TestInputTopic<String, String> blogs;
    private TestOutputTopic<byte[], byte[]> chunks;

    @BeforeEach
    void startDriver() throws Exception {
        FanoutSettings settings = new FanoutSettings(new BigVPolicy(THRESHOLD, 90), CHUNK, 2, TICK, Duration.ofDays(7), Duration.ofDays(1));
        fixture = new TopologyFixture((writers, meters) -> UnreadTopology.build(TOPICS, EventTimeLimit.DEFAULT, 1, writers, commits, settings, meters));
        driver = fixture.driver;
        StringSerializer strings = new StringSerializer();
        follows = driver.createInputTopic(TOPICS.followEvents().name(), strings, strings);
        blogs = driver.createInputTopic(TOPICS.blogEvents().name(), strings, strings);
        chunks = driver.createOutputTopic(TOPICS.fanoutChunks().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void closeDriver() {
        fixture.close();
    }

    private void follow(long follower, long author) {
        follow(follower, author, "2026-01-01T00:00:00Z");
    }

    private void follow(long follower, long author, String at) {
        follows.pipeInput(Long.toString(author), """
                {"type":"Followed","eventId":"f","followerId":%d,"authorId":%d,"at":"%s"}""".formatted(follower, author, at));
    }

    private void unfollow(long follower, long author) {
        follows.pipeInput(Long.toString(author), """
                {"type":"Unfollowed","eventId":"u","followerId":%d,"authorId":%d,"at":"2026-01-01T00:00:00Z"}""".formatted(follower, author));
    }

    private void publish(long blogId, long author) {
        blogs.pipeInput(Long.toString(author), """
                {"type":"BlogPublished","eventId":"p","blogId":%d,"authorId":%d,"publishedAt":"2026-01-01T12:00:00Z"}""".formatted(blogId, author));
    }

    private void followers(long author, long count) {
        LongStream.rangeClosed(1_001, 1_000 + count).forEach(follower -> follow(follower, author));
    }

    private List<FanoutChunk> emittedChunks() {
        return chunks.readValuesToList().stream().map(Topics.CHUNK_SERDE::decode).toList();
    }

    private static List<Long> followersIn(List<FanoutChunk> emitted) {
        List<Long> all = new ArrayList<>();
        emitted.forEach(chunk -> all.addAll(chunk.followerIds()));
        return all;
    }

    private long unread(long user) {
        return fixture.unread(user);
    }

    /** One scheduler tick, preceded by a commit: what was emitted before becomes durable. */
    private void commitAndTick() {
        commits.flushed();
        driver.advanceWallClockTime(TICK);
    }

    @Test
    void shouldFanABigVPublishOutAsBoundedChunksCoveringEveryFollowerOnce() {
        followers(BIGV, 250);
        follow(BIGV, BIGV);
        publish(5001, BIGV);
        assertThat(unread(1_001)).as("nothing is delivered inline for a big-V author").isZero();
        assertThat(pendingFollowers()).as("the author's own follow counts until the walk skips it").isEqualTo(251);

        for (int tick = 0; tick < 10; tick++) commitAndTick();

        List<FanoutChunk> emitted = emittedChunks();
        assertThat(emitted).allSatisfy(chunk -> {
            assertThat(chunk.followerIds()).hasSizeLessThanOrEqualTo(CHUNK);
            assertThat(chunk.kind()).isEqualTo(FanoutChunk.Kind.DELIVER);
            assertThat(chunk.jobFollowers()).isEqualTo(251);
        });
        assertThat(followersIn(emitted)).doesNotHaveDuplicates().doesNotContain(BIGV)
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1_001, 1_250).boxed().toList());
        assertThat(fixture.metric("chunked-followers-total")).as("progress metric").isEqualTo(250.0);
        assertThat(pendingFollowers()).as("all chunked").isZero();
    }

    @Test
    void shouldEmitOnlyABoundedNumberOfChunksPerTick() {
        followers(BIGV, 250);
        publish(5001, BIGV);

        driver.advanceWallClockTime(TICK);

        assertThat(emittedChunks()).hasSize(2);
        assertThat(pendingFollowers()).isEqualTo(250 - 2 * CHUNK);
    }

    private double pendingFollowers() {
        return fixture.meter("readmark.fanout.pending.followers");
    }

    @Test
    void shouldSaveProgressOnlyForChunksACommitMadeDurable() {
        followers(BIGV, 250);
        publish(5001, BIGV);
        driver.advanceWallClockTime(TICK);            // chunks 1-2 sent, no commit yet
        assertThat(savedJob().durableFollowers()).as("nothing durable, nothing saved").isZero();

        commitAndTick();                              // 1-2 durable; chunks 3-4 sent

        long lastOfChunk2 = emittedChunks().get(1).followerIds().getLast();
        assertThat(savedJob().durableFollowers()).isEqualTo(2 * CHUNK);
        assertThat(savedJob().durableCursor()).as("saved up to the last follower of chunk 2").isEqualTo(lastOfChunk2);
        assertThat(savedJob().durableSlot()).as("in its slot").isEqualTo(UnreadKeys.slot(lastOfChunk2));
    }

    private FanoutJob savedJob() {
        org.apache.kafka.streams.state.KeyValueStore<String, byte[]> store = driver.getKeyValueStore(FanoutJobs.STORE_NAME);
        return new FanoutJobs(store).all().getFirst();
    }

    @Test
    void shouldRemoveTheBlogFromEveryFollowerWhenItIsDeletedDuringTheFanOut() {
        followers(BIGV, 250);
        publish(5001, BIGV);
        driver.advanceWallClockTime(TICK);

        blogs.pipeInput("7", """
                {"type":"BlogDeleted","eventId":"d","blogId":5001,"authorId":7,"deletedAt":"2026-01-01T13:00:00Z"}""");
        for (int tick = 0; tick < 10; tick++) commitAndTick();

        List<FanoutChunk> emitted = emittedChunks();
        List<FanoutChunk> removals = emitted.stream().filter(c -> c.kind() == FanoutChunk.Kind.REMOVE).toList();
        assertThat(emitted.stream().filter(c -> c.kind() == FanoutChunk.Kind.DELIVER)).as("delivery cancelled").hasSize(2);
        assertThat(followersIn(removals)).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1_001, 1_250).boxed().toList());
    }

    @Test
    void shouldNotDeliverToUsersWhoFollowedAfterThePostEvenIfTheWalkReachesThemLater() {
        followers(BIGV, 250);
        publish(5001, BIGV);                          // published at 12:00
        commitAndTick();                              // the walk is at follower 1,080

        follow(1_500, BIGV, "2026-01-01T12:05:00Z");  // after the post, ahead of the walk
        for (int tick = 0; tick < 10; tick++) commitAndTick();

        List<Long> reached = followersIn(emittedChunks());
        assertThat(reached).doesNotContain(1_500L);
        assertThat(reached).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1_001, 1_250).boxed().toList());
    }

    @Test
    void shouldKeepABigVAuthorOnTheBigVPathUntilFollowersDropBelowTheReleaseLevel() {
        followers(BIGV, THRESHOLD);
        LongStream.rangeClosed(1_001, 1_005).forEach(f -> unfollow(f, BIGV));   // 95 followers: still big-V
        publish(5001, BIGV);
        assertThat(unread(1_050)).as("95 followers, hysteresis keeps it big-V").isZero();

        LongStream.rangeClosed(1_006, 1_011).forEach(f -> unfollow(f, BIGV));   // 89 followers: normal again
        publish(5002, BIGV);
        assertThat(unread(1_050)).as("below the release level: inline delivery").isEqualTo(1);
    }
}
