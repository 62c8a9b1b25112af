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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The big-V scheduler on in-memory stores, its chunks collected: chunking, the durable cursor (saved only for chunks
 * forwarded before a completed commit flush, as counted by {@link ThreadCommits}), resuming from it, and cancelling.
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
    private final FanoutJobs jobs = new FanoutJobs(InMemoryStores.byName(FanoutJobs.STORE_NAME));
    private final ThreadCommits commits = new ThreadCommits();
    private final List<FanoutChunk> sent = new ArrayList<>();
    private final FanoutScheduler scheduler = scheduler();

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
        followers(1, followers, 0);
        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        scheduler.tick(50);
        takeChunks();
    }

    private FanoutJob savedJob() {
        assertThat(jobs.all()).hasSize(1);
        return jobs.all().getFirst();
    }

    @Test
    void shouldSendBoundedChunksPerTickCoveringEveryFollowerOnceButNotTheAuthor() {
        followers(1, 5, 0);
        graph.follow(AUTHOR, AUTHOR, 0);

        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        assertThat(scheduler.pendingFollowers()).isEqualTo(6);
        assertThat(sent).as("nothing before the first tick").isEmpty();

        scheduler.tick(50);
        assertThat(takeChunks()).as("two chunks a tick").containsExactly(List.of(1L, 2L), List.of(3L, 4L));
        assertThat(scheduler.pendingFollowers()).isEqualTo(2);

        scheduler.tick(100);
        assertThat(takeChunks()).containsExactly(List.of(5L));
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
        followers(1, 2, POSTED_AT - 1);
        followers(3, 4, POSTED_AT + 1);

        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        scheduler.start(FanoutChunk.Kind.REMOVE, AUTHOR, BLOG + 1, POSTED_AT, 0);
        for (int tick = 1; tick <= 3; tick++) scheduler.tick(tick * 50L);

        assertThat(sent).filteredOn(chunk -> chunk.kind() == FanoutChunk.Kind.DELIVER).extracting(FanoutChunk::followerIds)
                .containsExactly(List.of(1L, 2L));
        assertThat(sent).filteredOn(chunk -> chunk.kind() == FanoutChunk.Kind.REMOVE).extracting(FanoutChunk::followerIds)
                .containsExactly(List.of(1L, 2L), List.of(3L, 4L));
    }

    @Test
    void shouldSaveTheCursorOnlyPastChunksSentBeforeACompletedCommitFlush() {
        followers(1, 10, 0);
        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 0);
        assertThat(savedJob().durableCursor()).isZero();

        scheduler.tick(50);
        assertThat(takeChunks()).containsExactly(List.of(1L, 2L), List.of(3L, 4L));
        scheduler.tick(100);
        assertThat(takeChunks()).as("sending goes on before a commit").containsExactly(List.of(5L, 6L), List.of(7L, 8L));
        assertThat(savedJob().durableCursor()).as("no commit flushed yet").isZero();

        commits.flushed();
        scheduler.tick(150);
        assertThat(savedJob().durableCursor()).as("all sent before the flush").isEqualTo(8);
        assertThat(savedJob().durableFollowers()).isEqualTo(8);
        assertThat(takeChunks()).containsExactly(List.of(9L, 10L));

        scheduler.tick(200);
        assertThat(savedJob().durableCursor()).as("the last chunk is not durable yet").isEqualTo(8);

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
        assertThat(savedJob().durableCursor()).isEqualTo(4);
        sent.clear();

        FanoutScheduler restarted = scheduler();
        restarted.resume();
        assertThat(restarted.pendingFollowers()).isEqualTo(6);
        restarted.tick(150);
        restarted.tick(200);

        assertThat(takeChunks()).as("chunks 5-8 were sent, but no flush made them durable")
                .containsExactly(List.of(5L, 6L), List.of(7L, 8L), List.of(9L, 10L));
    }

    @Test
    void shouldIgnoreTheStartOfAJobThatIsRunning() {
        deliveryPastItsFirstTick(6);

        scheduler.start(FanoutChunk.Kind.DELIVER, AUTHOR, BLOG, POSTED_AT, 60);
        scheduler.tick(100);

        assertThat(takeChunks()).as("the walk goes on where it was").containsExactly(List.of(5L, 6L));
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
