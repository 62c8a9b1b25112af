package io.readmark.processor.fanout;

import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.schemas.FanoutChunk;
import org.apache.kafka.common.metrics.Sensor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives big-V fan-outs a few chunks per tick, so no single call walks a million followers and the stream thread
 * serves normal authors between ticks. A job's saved cursor only moves past chunks that a commit has made durable,
 * so a crash resumes without a gap; chunks re-sent after it are harmless.
 */
public final class FanoutScheduler {

    private static final Logger log = LoggerFactory.getLogger(FanoutScheduler.class);
    private static final long PROGRESS_LOG_INTERVAL_MS = 5_000;

    /** Receives each chunk; the processor forwards it to the fan-out topic. */
    @FunctionalInterface
    public interface ChunkSink {
        void send(FanoutChunk chunk);
    }

    /** What has been sent for one job, beyond what is saved. */
    private static final class Progress {
        FanoutJob job;
        FollowerGraph.Position emitted;
        long emittedFollowers;
        long emittedInCommit = -1;
        boolean exhausted;
        long lastLogAt;

        Progress(FanoutJob job) {
            this.job = job;
            this.emitted = job.durablePosition();
            this.emittedFollowers = job.durableFollowers();
        }
    }

    private final FollowerGraph graph;
    private final FanoutJobs jobs;
    private final ThreadCommits commits;
    private final FanoutSettings settings;
    private final ChunkSink sink;
    private final Sensor handedOver;
    private final Map<String, Progress> inFlight = new LinkedHashMap<>();
    /** Written by the stream thread after each change, read by metric scrapes. */
    private volatile long pendingFollowers;

    /**
     * @param handedOver records the followers put into chunks (rate and total, as a Kafka Streams metric)
     */
    public FanoutScheduler(FollowerGraph graph, FanoutJobs jobs, ThreadCommits commits, FanoutSettings settings, ChunkSink sink,
                    Sensor handedOver) {
        this.graph = graph;
        this.jobs = jobs;
        this.commits = commits;
        this.settings = settings;
        this.sink = sink;
        this.handedOver = handedOver;
    }

    /** Picks up the jobs this task owned before a restart or rebalance. */
    public void resume() {
        for (FanoutJob job : jobs.all()) {
            inFlight.put(job.jobId(), new Progress(job));
            log.atInfo().addKeyValue("job", job.jobId()).addKeyValue("author", job.authorId())
                    .addKeyValue("afterSlot", job.durableSlot()).addKeyValue("afterFollower", job.durableCursor()).addKeyValue("done", job.durableFollowers())
                    .addKeyValue("followers", job.totalFollowers()).log("fan-out resumed");
        }
        countPending();
    }

    public void start(FanoutChunk.Kind kind, long authorId, long blogId, long atMillis, long nowMillis) {
        FanoutJob job = FanoutJob.start(kind, authorId, blogId, atMillis, graph.followerCount(authorId), nowMillis);
        if (inFlight.containsKey(job.jobId())) return; // a replayed publish or delete: the job is already running
        jobs.save(job);
        inFlight.put(job.jobId(), new Progress(job));
        log.atInfo().addKeyValue("job", job.jobId()).addKeyValue("author", authorId)
                .addKeyValue("followers", job.totalFollowers()).log("fan-out started");
        countPending();
    }

    /** Stops a running fan-out (a delivery whose blog was deleted meanwhile). */
    public void cancel(String jobId) {
        if (inFlight.remove(jobId) != null) {
            jobs.delete(jobId);
            log.atInfo().addKeyValue("job", jobId).log("fan-out cancelled");
            countPending();
        }
    }

    public void tick(long nowMillis) {
        long commit = commits.current();
        int budget = settings.chunksPerTick();
        for (Progress progress : new ArrayList<>(inFlight.values())) {
            boolean durable = commit > progress.emittedInCommit;
            if (durable && progress.exhausted) {
                complete(progress, nowMillis);
                continue;
            }
            if (durable && !progress.emitted.equals(progress.job.durablePosition())) {
                progress.job = progress.job.withDurableProgress(progress.emitted, progress.emittedFollowers);
                jobs.save(progress.job);
                maybeLogProgress(progress, nowMillis);
            }
            while (budget > 0 && !progress.exhausted) {
                if (emitNextChunk(progress)) {
                    progress.emittedInCommit = commit;
                    budget--;
                } else {
                    progress.exhausted = true;
                }
            }
        }
        countPending();
    }

    /** Followers of this task's running fan-outs not yet put into chunks. */
    long pendingFollowers() {
        return pendingFollowers;
    }

    private void countPending() {
        long pending = 0;
        for (Progress progress : inFlight.values()) {
            // The follower total is counted at the start; follows since then can make the walk run past it.
            if (!progress.exhausted) pending += Math.max(0, progress.job.totalFollowers() - progress.emittedFollowers);
        }
        pendingFollowers = pending;
    }

    private boolean emitNextChunk(Progress progress) {
        List<Long> followers = new ArrayList<>(settings.chunkSize());
        FanoutJob job = progress.job;
        // A delivery skips those who followed after the post; a removal goes to everyone who might hold it.
        long followedBefore = job.kind() == FanoutChunk.Kind.DELIVER ? job.atMillis() : Long.MAX_VALUE;
        graph.forEachFollowerAfter(job.authorId(), progress.emitted, followedBefore, follower -> {
            if (follower != job.authorId()) followers.add(follower);
            return followers.size() < settings.chunkSize();
        }, position -> progress.emitted = position);
        if (followers.isEmpty()) return false;
        sink.send(new FanoutChunk(job.jobId(), job.kind(), job.authorId(), job.blogId(), job.atMillis(),
                job.totalFollowers(), job.startedAtMillis(), followers));
        progress.emittedFollowers += followers.size();
        handedOver.record(followers.size());
        return true;
    }

    private void complete(Progress progress, long nowMillis) {
        FanoutJob job = progress.job;
        inFlight.remove(job.jobId());
        jobs.delete(job.jobId());
        long tookMs = Math.max(1, nowMillis - job.startedAtMillis());
        log.atInfo().addKeyValue("job", job.jobId()).addKeyValue("author", job.authorId())
                .addKeyValue("followers", progress.emittedFollowers).addKeyValue("tookMs", tookMs)
                .addKeyValue("followersPerSecond", progress.emittedFollowers * 1000 / tookMs)
                .log("fan-out handed to workers");
    }

    private void maybeLogProgress(Progress progress, long nowMillis) {
        if (nowMillis - progress.lastLogAt < PROGRESS_LOG_INTERVAL_MS) return;
        progress.lastLogAt = nowMillis;
        FanoutJob job = progress.job;
        long elapsed = Math.max(1, nowMillis - job.startedAtMillis());
        log.atInfo().addKeyValue("job", job.jobId()).addKeyValue("done", job.durableFollowers())
                .addKeyValue("followers", job.totalFollowers())
                .addKeyValue("followersPerSecond", job.durableFollowers() * 1000 / elapsed).log("fan-out chunking progress");
    }
}
