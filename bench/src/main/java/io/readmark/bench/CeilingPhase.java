package io.readmark.bench;

import io.lettuce.core.ScriptOutputType;
import io.readmark.store.MergedMember;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import io.readmark.store.UnreadLimits;
import io.readmark.store.UnreadScript;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Redis alone: the product's delivery script for every (post, follower) pair of the workload, pipelined by Lettuce
 * from a few connections with a sliding window and no Kafka, RocksDB or stream thread in between. Arguments are
 * pre-encoded bytes, Lettuce's cheapest path, so the client costs as little as it can on the cores it shares with
 * Redis. What Redis absorbs this way is the ceiling the pipeline is held to; it is verified by counting.
 */
final class CeilingPhase {

    record Result(long deliveries, double seconds, CpuUsage cpu) {
        double perSecond() {
            return deliveries / seconds;
        }
    }

    /** Scripts in flight per connection: enough to keep Redis busy, bounded so memory stays flat. */
    private static final int WINDOW = 8_192;
    private static final int FLUSH_EVERY = 256;
    /** Deliveries of the unmeasured warm-up: the pipeline runs on a JIT-warm JVM, so the ceiling must too. */
    private static final long WARMUP_DELIVERIES = 200_000;
    static final String PREFIX = "ceiling";

    private CeilingPhase() {
    }

    static Result run(RedisConnections redis, RedisStats stats, Workload workload, int connections, PrintStream err)
            throws InterruptedException {
        String sha = redis.shared().sync().scriptLoad(UnreadScript.DELIVER.body());
        long warmup = Math.min(WARMUP_DELIVERIES, workload.deliveries() / 4);
        drive(redis, new UnreadKeys("warmup"), sha, workload, connections, warmup, "warm-up", err);
        stats.flushAll();

        UnreadKeys keys = new UnreadKeys(PREFIX);
        CpuUsage.Meter cpu = CpuUsage.start(stats);
        long start = System.nanoTime();
        drive(redis, keys, sha, workload, connections, Long.MAX_VALUE, "ceiling", err);
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuUsage usage = cpu.stop();
        long visible = stats.visibleDeliveries(keys, 1, workload.graph().users());
        if (visible != workload.deliveries()) {
            throw new IllegalStateException("ceiling: " + visible + " deliveries visible, expected " + workload.deliveries());
        }
        return new Result(visible, seconds, usage);
    }

    /** Runs the workload (its first {@code limit} deliveries) on {@code connections} threads and waits for every reply. */
    private static void drive(RedisConnections redis, UnreadKeys keys, String sha, Workload workload, int connections,
                              long limit, String label, PrintStream err) throws InterruptedException {
        byte[] cap = UnreadKeys.decimal(UnreadLimits.DEFAULTS.maxUnreadPerAuthor());
        LongAdder done = new LongAdder();
        AtomicLong failures = new AtomicLong();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < connections; t++) {
            int slice = t;
            threads.add(Thread.ofPlatform().name("ceiling-" + t).start(() -> {
                try (RedisConnections.BinaryConnection connection = redis.openBinary()) {
                    pipeline(connection, keys, sha, cap, workload, slice, connections, limit / connections, done, failures, firstFailure);
                }
            }));
        }
        try (ProgressBar bar = new ProgressBar(err, label, Math.min(limit, workload.deliveries()), "deliveries")) {
            for (Thread thread : threads) {
                while (!thread.join(java.time.Duration.ofMillis(100))) bar.update(done.sum());
            }
            bar.update(done.sum());
        }
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " ceiling scripts failed", firstFailure.get());
        }
    }

    /** One connection's share: posts {@code slice, slice + slices, …}, every follower, at most WINDOW unanswered. */
    private static void pipeline(RedisConnections.BinaryConnection connection, UnreadKeys keys, String sha, byte[] cap,
                                 Workload workload, int slice, int slices, long limit, LongAdder done, AtomicLong failures,
                                 AtomicReference<Throwable> firstFailure) {
        connection.stateful().setAutoFlushCommands(false);
        Semaphore window = new Semaphore(WINDOW);
        PowerLawGraph graph = workload.graph();
        List<Workload.Post> posts = workload.posts();
        int unflushed = 0;
        long sent = 0;
        for (int p = slice; p < posts.size() && sent < limit; p += slices) {
            Workload.Post post = posts.get(p);
            byte[] author = UnreadKeys.decimal(post.authorId());
            byte[] blog = UnreadKeys.decimal(post.blogId());
            byte[] publishedAt = UnreadKeys.decimal(post.publishedAtMillis());
            byte[] member = MergedMember.of(post.authorId(), post.blogId());
            for (int i = 0; i < graph.followerCount(post.authorId()) && sent < limit; i++, sent++) {
                int follower = graph.follower(post.authorId(), i);
                if (!window.tryAcquire()) {
                    // Never block with unsent commands buffered: their replies are what frees the window.
                    connection.stateful().flushCommands();
                    unflushed = 0;
                    window.acquireUninterruptibly();
                }
                connection.async().<Long>evalsha(sha, ScriptOutputType.INTEGER,
                        new byte[][]{keys.unreadBytes(follower, post.authorId()), keys.countsBytes(follower),
                                keys.marksBytes(follower), keys.floorsBytes(follower), keys.mergedBytes(follower),
                                keys.liveBytes(follower), keys.changesBytes(follower)},
                        author, blog, publishedAt, cap, member).whenComplete((delta, error) -> {
                            if (error != null && failures.incrementAndGet() == 1) firstFailure.set(error);
                            done.increment();
                            window.release();
                        });
                if (++unflushed >= FLUSH_EVERY) {
                    connection.stateful().flushCommands();
                    unflushed = 0;
                }
            }
        }
        connection.stateful().flushCommands();
        window.acquireUninterruptibly(WINDOW);
    }
}
