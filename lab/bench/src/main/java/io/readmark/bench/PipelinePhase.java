package io.readmark.bench;

import io.readmark.client.EventPublisher;
import io.readmark.store.unread.UnreadKeys;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The whole write path: every post of the workload published to Kafka, fanned out by the stream processor, written
 * to Redis. The clock runs from the first publish until Σ counts.total over all users has grown by the expected
 * deliveries — counted in Redis, not inferred from what was sent. Script calls only tell it when to count: once as
 * many ran as the product sends for the posts ({@link Workload#deliveryScripts()}).
 * Run again with {@link Workload#repetition}, it measures the same work on top of what the earlier runs left.
 */
final class PipelinePhase {

    record Result(long deliveries, double seconds, double scriptsDoneSeconds, CpuUsage cpu) implements WriteMeasurement {
    }

    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final long POLL_MILLIS = 20;
    private static final long QUIET_NANOS = Duration.ofMillis(500).toNanos();

    private PipelinePhase() {
    }

    static Result run(EventPublisher publisher, RedisStats stats, UnreadKeys keys, Workload workload, PrintStream err)
            throws Exception {
        int users = workload.graph().users();
        long visibleBefore = stats.visibleDeliveries(keys, 1, users);
        long expected = visibleBefore + workload.deliveries();
        long callsBefore = stats.scriptCalls();
        AtomicReference<Throwable> failure = new AtomicReference<>();

        CpuUsage.Meter cpu = CpuUsage.start(stats);
        long start = System.nanoTime();
        for (Workload.Post post : workload.posts()) {
            publisher.blogPublishedAsync("p-" + post.blogId(), post.blogId(), post.authorId(),
                    Instant.ofEpochMilli(post.publishedAtMillis())).whenComplete((ack, error) -> {
                        if (error != null) failure.compareAndSet(null, error);
                    });
        }
        long scripts = workload.deliveryScripts();
        long calls = 0;
        long lastGrowth = start;
        long visible;
        long deadline = start + TIMEOUT.toNanos();
        try (ProgressBar bar = new ProgressBar(err, "pipeline", workload.deliveries(), "deliveries")) {
            while (true) {
                if (failure.get() != null) throw new IllegalStateException("publishing posts failed", failure.get());
                if (System.nanoTime() > deadline) throw new IllegalStateException("pipeline not done within " + TIMEOUT);
                long now = stats.scriptCalls() - callsBefore;
                if (now != calls) {
                    calls = now;
                    lastGrowth = System.nanoTime();
                    bar.update(Math.min(workload.deliveries(), workload.deliveries() * calls / scripts));
                }
                // Once as many scripts ran as the product sends for these posts (or none ran for half a second, should
                // it have grouped them otherwise), the exact count decides.
                if (calls >= scripts || (calls > 0 && System.nanoTime() - lastGrowth > QUIET_NANOS)) {
                    visible = stats.visibleDeliveries(keys, 1, users);
                    if (visible >= expected) break;
                }
                Thread.sleep(POLL_MILLIS);
            }
            bar.update(visible - visibleBefore);
        }
        long end = System.nanoTime();
        CpuUsage usage = cpu.stop();
        if (visible != expected) {
            throw new IllegalStateException("pipeline: " + visible + " deliveries visible, expected " + expected);
        }
        return new Result(visible - visibleBefore, (end - start) / 1e9, (lastGrowth - start) / 1e9, usage);
    }
}
