package io.readmark.processor.fanout;

import io.readmark.processor.InMemoryStores;
import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.graph.BigVPolicy;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.schemas.FanoutChunk;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import io.readmark.store.unread.UnreadKeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The big-V scheduler on in-memory stores, its chunks collected: chunking, the durable cursor (saved only for chunks
 * forwarded before a completed commit flush, as counted by {@link ThreadCommits}), resuming from it, and cancelling.
 * Followers 1 to 10 are walked slot by slot: {@code F[i]} is the i-th of them in the walk.
 */
class FanoutSchedulerTest {

    private static final long AUTHOR = 1_000;
    private static final long BLOG = 5001;
    private static final long POSTED_AT = 1_000;
    private static final int CHUNK = 2;

    private final Metrics metrics = new Metrics();
    private final KeyValueStore<Bytes, byte[]> pairs = InMemoryStores.bytes(FollowerGraph.STORE_NAME);
    private final KeyValueStore<Bytes, byte[]> counts = InMemoryStores.bytes(FollowerGraph.COUNTS_STORE_NAME);
    private final FollowerGraph graph = new FollowerGraph(pairs, counts, BigVPolicy.withThreshold(1_000));
    private final KeyValueStore<String, byte[]> jobStore = InMemoryStores.byName(FanoutJobs.STORE_NAME);
    private final FanoutJobs jobs = new FanoutJobs(jobStore);
    private final ThreadCommits commits = new ThreadCommits();
    private final List<FanoutChunk> sent = new ArrayList<>();
    private final FanoutScheduler scheduler = scheduler();
    /** Followers 1 to 10 in walk order: by their Redis Cluster slot, then id. */
    private static final List<Long> F = LongStream.rangeClosed(1, 10).boxed()
            .sorted(Comparator.comparingInt((Long follower) -> UnreadKeys.slot(follower)).thenComparing(follower -> follower)).toList();

    private static List<Long> f(int... indexes) {
        return Arrays.stream(indexes).mapToObj(F::get).toList();
    }

    private FanoutScheduler scheduler() {
        FanoutSettings settings = new FanoutSettings(BigVPolicy.withThreshold(1_000), CHUNK, 2, Duration.ofMillis(50),
                Duration.ofDays(7), Duration.ofDays(1));
        return new FanoutScheduler(graph, jobs, commits, settings, sent::add, metrics.sensor("handed-over"));
    }

    @AfterEach
    void closeMetrics() {
        metrics.close();
    }

    private void followers(long first, long last, long followedAt) {
        LongStream.rangeClosed(first, last).forEach(follower -> graph.follow(AUTHOR, follower, followedAt));
    }

    private List<List<Long>> takeChunks() {
        List<List<Long>> followers = sent.stream().map(FanoutChunk::followerIds).toList();
        sent.clear();
        return followers;
    }

    /** A delivery to followers 1 to {@code followers}, past its first tick and its chunks taken. */
    private void deliveryPastItsFirstTick(long followers) {
        F.subList(0, (int) followers).forEach(follower -> graph.follow(AUTHOR, follower, 0));
        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        scheduler.tick(50);
        takeChunks();
    }

    private static FollowerGraph.Position at(long follower) {
        return new FollowerGraph.Position(UnreadKeys.slot(follower), follower);
    }

    private FanoutJob savedJob() {
        assertThat(jobs.all()).hasSize(1);
        return jobs.all().getFirst();
    }

    @Test
    void shouldSendBoundedChunksPerTickCoveringEveryFollowerOnceButNotTheAuthor() {
        f(0, 1, 2, 3, 4).forEach(follower -> graph.follow(AUTHOR, follower, 0));
        graph.follow(AUTHOR, AUTHOR, 0);

        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        assertThat(scheduler.pendingFollowers()).isEqualTo(6);
        assertThat(sent).as("nothing before the first tick").isEmpty();

        scheduler.tick(50);
        assertThat(takeChunks()).as("two chunks a tick").containsExactly(f(0, 1), f(2, 3));
        assertThat(scheduler.pendingFollowers()).isEqualTo(2);

        scheduler.tick(100);
        assertThat(takeChunks()).containsExactly(f(4));
        assertThat(sent).isEmpty();
        assertThat(scheduler.pendingFollowers()).isZero();
    }

    @Test
    void shouldDescribeTheJobInEveryChunk() {
        followers(1, 3, 0);

        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 20);
        scheduler.tick(50);

        assertThat(sent).allSatisfy(chunk -> {
            assertThat(chunk.jobId()).isEqualTo(FanoutJob.idOf(FanoutChunk.Kind.DELIVER, BLOG));
            assertThat(chunk.kind()).isEqualTo(FanoutChunk.Kind.DELIVER);
            assertThat(chunk.authorId()).isEqualTo(AUTHOR);
            assertThat(chunk.blogId()).isEqualTo(BLOG);
            assertThat(chunk.atMillis()).isEqualTo(POSTED_AT);
            assertThat(chunk.jobFollowers()).isEqualTo(3);
            assertThat(chunk.jobStartedAtMillis()).isEqualTo(20);
        });
    }

    @Test
    void shouldDeliverOnlyToThoseWhoFollowedBeforeThePostButRemoveFromEveryone() {
        f(0, 1).forEach(follower -> graph.follow(AUTHOR, follower, POSTED_AT - 1));
        f(2, 3).forEach(follower -> graph.follow(AUTHOR, follower, POSTED_AT + 1));

        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        scheduler.start(FanoutChunk.Kind.REMOVE, AUTHOR, BLOG + 1, POSTED_AT, 0);
        for (int tick = 1; tick <= 3; tick++) scheduler.tick(tick * 50L);

        assertThat(sent).filteredOn(chunk -> chunk.kind() == FanoutChunk.Kind.DELIVER).extracting(FanoutChunk::followerIds)
                .containsExactly(f(0, 1));
        assertThat(sent).filteredOn(chunk -> chunk.kind() == FanoutChunk.Kind.REMOVE).extracting(FanoutChunk::followerIds)
                .containsExactly(f(0, 1), f(2, 3));
    }

    @Test
    void shouldSaveTheCursorOnlyPastChunksSentBeforeACompletedCommitFlush() {
        followers(1, 10, 0);
        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        assertThat(savedJob().durablePosition()).isEqualTo(FollowerGraph.Position.START);

        scheduler.tick(50);
        assertThat(takeChunks()).containsExactly(f(0, 1), f(2, 3));
        scheduler.tick(100);
        assertThat(takeChunks()).as("sending goes on before a commit").containsExactly(f(4, 5), f(6, 7));
        assertThat(savedJob().durablePosition()).as("no commit flushed yet").isEqualTo(FollowerGraph.Position.START);

        commits.flushed();
        scheduler.tick(150);
        assertThat(savedJob().durablePosition()).as("all sent before the flush").isEqualTo(at(F.get(7)));
        assertThat(savedJob().durableFollowers()).isEqualTo(8);
        assertThat(takeChunks()).containsExactly(f(8, 9));

        scheduler.tick(200);
        assertThat(savedJob().durablePosition()).as("the last chunk is not durable yet").isEqualTo(at(F.get(7)));

        commits.flushed();
        scheduler.tick(250);
        assertThat(jobs.all()).as("done once its last chunk is durable").isEmpty();
    }

    @Test
    void shouldResumeAfterTheSavedCursorSendingAgainOnlyWhatWasNotDurable() {
        followers(1, 10, 0);
        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        scheduler.tick(50);
        commits.flushed();
        scheduler.tick(100);
        assertThat(savedJob().durablePosition()).isEqualTo(at(F.get(3)));
        sent.clear();

        FanoutScheduler restarted = scheduler();
        restarted.resume();
        assertThat(restarted.pendingFollowers()).isEqualTo(6);
        restarted.tick(150);
        restarted.tick(200);

        assertThat(takeChunks()).as("chunks 5-8 were sent, but no flush made them durable")
                .containsExactly(f(4, 5), f(6, 7), f(8, 9));
    }

    /** Saved before the walk went slot by slot: the cursor is the last follower id the walk in id order covered. */
    @Test
    void shouldResumeAJobSavedWithAFollowerIdCursorWithoutMissingAFollower() {
        followers(1, 10, 0);
        jobStore.put(FanoutJob.idOf(FanoutChunk.Kind.DELIVER, BLOG), """
                {"jobId":"deliver-%d","kind":"DELIVER","authorId":%d,"blogId":%d,"atMillis":%d,"totalFollowers":10,
                "durableCursor":5,"durableFollowers":5,"startedAtMillis":0}""".formatted(BLOG, AUTHOR, BLOG, POSTED_AT).getBytes(UTF_8));

        FanoutScheduler restarted = scheduler();
        restarted.resume();
        for (int tick = 1; tick <= 6; tick++) restarted.tick(tick * 50L);

        assertThat(takeChunks().stream().flatMap(List::stream)).as("whatever the old walk covered, none is lost")
                .containsAll(LongStream.rangeClosed(6, 10).boxed().toList()).doesNotHaveDuplicates();
    }

    @Test
    void shouldIgnoreTheStartOfAJobThatIsRunning() {
        deliveryPastItsFirstTick(6);

        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 60);
        scheduler.tick(100);

        assertThat(takeChunks()).as("the walk goes on where it was").containsExactly(f(4, 5));
    }

    @Test
    void shouldStopAndForgetACancelledJob() {
        deliveryPastItsFirstTick(10);

        scheduler.cancel(FanoutJob.idOf(FanoutChunk.Kind.DELIVER, BLOG));
        scheduler.cancel(FanoutJob.idOf(FanoutChunk.Kind.DELIVER, BLOG));
        scheduler.tick(100);

        assertThat(sent).isEmpty();
        assertThat(jobs.all()).isEmpty();
        assertThat(scheduler.pendingFollowers()).isZero();
    }
}
