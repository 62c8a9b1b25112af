package io.readmark.bench;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import io.readmark.store.UnreadLimits;
import io.readmark.store.UnreadScript;
import io.readmark.store.UnreadWriter;

import java.io.PrintStream;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Bytes of Redis memory per unread entry for a realistic spread, on a fresh Redis that holds nothing else: the
 * first {@code memoryUsers} users of the platform, each with 1..{@code memoryMaxUnread} unread posts from every
 * author they follow, written by the product's own writer and scripts. The figure is the {@code used_memory}
 * delta over the entries counted back from Redis, so it includes every key, hash field and per-key overhead.
 */
final class MemoryPhase {

    record Result(long entries, long keys, long usedMemoryDelta, long pairs, KeySample sample) {
        double bytesPerEntry() {
            return (double) usedMemoryDelta / entries;
        }
    }

    /** MEMORY USAGE of sampled keys: where the bytes per entry go (key overhead versus the entries themselves). */
    record KeySample(double unreadSetBytes, double unreadSetEntries, double countsHashBytes, double countsHashFields) {
    }

    private static final int SAMPLED_USERS = 200;

    /** Blog ids of one author's newest posts: distinct per author, realistic magnitudes. */
    private static final long FIRST_BLOG_ID = 50_000_000L;
    private static final int MAX_PENDING = 10_000;

    private MemoryPhase() {
    }

    private static KeySample sample(RedisConnections redis, UnreadKeys keys, PowerLawGraph graph, int users) {
        var sync = redis.shared().sync();
        long setBytes = 0, setEntries = 0, sets = 0, hashBytes = 0, hashFields = 0;
        for (int user = 1; user <= users; user++) {
            hashBytes += sync.memoryUsage(keys.counts(user));
            hashFields += sync.hlen(keys.counts(user));
            int u = user;
            long[] acc = new long[3];
            graph.forEachFollowed(user, author -> {
                acc[0] += sync.memoryUsage(keys.unread(u, author));
                acc[1] += sync.zcard(keys.unread(u, author));
                acc[2]++;
            });
            setBytes += acc[0];
            setEntries += acc[1];
            sets += acc[2];
        }
        return new KeySample((double) setBytes / sets, (double) setEntries / sets, (double) hashBytes / users, (double) hashFields / users);
    }

    static Result run(PowerLawGraph graph, int users, int maxUnread, long seed, PrintStream err) {
        try (EmbeddedRedis fresh = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(fresh.url(), Duration.ofSeconds(30), false);
             RedisStats stats = new RedisStats(redis)) {
            UnreadKeys keys = new UnreadKeys(UnreadKeys.DEFAULT_PREFIX);
            // Script cache and connection buffers exist before the baseline, so only the data is in the delta.
            redis.shared().sync().scriptLoad(UnreadScript.DELIVER.body());
            long before = stats.usedMemory();

            SplittableRandom random = new SplittableRandom(seed);
            long written = 0, pairs = 0;
            try (UnreadWriter writer = new UnreadWriter(redis.openBinary(), keys, UnreadLimits.DEFAULTS, MAX_PENDING);
                 ProgressBar bar = new ProgressBar(err, "memory", users, "users")) {
                for (int user = 1; user <= users; user++) {
                    int[] authors = new int[graph.followedCount(user)];
                    int[] next = {0};
                    graph.forEachFollowed(user, a -> authors[next[0]++] = a);
                    for (int author : authors) {
                        int unread = 1 + random.nextInt(maxUnread);
                        for (int i = 0; i < unread; i++) {
                            long blogId = FIRST_BLOG_ID + (long) author * maxUnread + i;
                            writer.deliver(user, author, blogId, Workload.EPOCH_2026 + blogId * 1_000);
                        }
                        written += unread;
                        pairs++;
                    }
                    bar.update(user);
                }
                writer.awaitAcknowledged();
            }
            long entries = stats.visibleDeliveries(keys, 1, users);
            if (entries != written) throw new IllegalStateException("memory: " + entries + " entries visible, wrote " + written);
            long delta = stats.usedMemory() - before;
            return new Result(entries, stats.keys(), delta, pairs, sample(redis, keys, graph, Math.min(users, SAMPLED_USERS)));
        }
    }
}
