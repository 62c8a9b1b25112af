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
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Bytes of Redis memory per unread entry, on a fresh Redis that holds nothing else, for a {@link Population}: the
 * platform's spread (its first {@code memoryUsers} users, 1..{@code memoryMaxUnread} unread posts from every author
 * they follow) and a heavy one (every user with up to {@value #HEAVY_MAX_UNREAD} unread from each of
 * {@value #HEAVY_AUTHORS} authors), written by the product's own writer and scripts. The figure is the
 * {@code used_memory} delta over the entries counted back from Redis, so it includes every key, hash field and
 * per-key overhead.
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

    /**
     * Whose entries are written: users 1..{@code users}, the authors each follows, and between {@code minUnread} and
     * {@code maxUnread} unread posts (uniformly) from each of those authors.
     */
    record Population(int users, IntFunction<int[]> authorsOf, int minUnread, int maxUnread) {

        /** The platform's spread: the graph's first {@code users} users, 1..{@code maxUnread} unread per author followed. */
        static Population of(PowerLawGraph graph, int users, int maxUnread) {
            return new Population(users, user -> {
                int[] authors = new int[graph.followedCount(user)];
                int[] next = {0};
                graph.forEachFollowed(user, author -> authors[next[0]++] = author);
                return authors;
            }, 1, maxUnread);
        }

        /** Many unread per user: {@value #HEAVY_USERS} users, each following the same {@value #HEAVY_AUTHORS} authors. */
        static Population heavy() {
            int[] authors = IntStream.rangeClosed(1, HEAVY_AUTHORS).toArray();
            return new Population(HEAVY_USERS, user -> authors, 0, HEAVY_MAX_UNREAD);
        }
    }

    static final int HEAVY_USERS = 500, HEAVY_AUTHORS = 50, HEAVY_MAX_UNREAD = 20;
    private static final int SAMPLED_USERS = 200;

    /** Blog ids of one author's newest posts: distinct per author, realistic magnitudes. */
    private static final long FIRST_BLOG_ID = 50_000_000L;
    private static final int MAX_PENDING = 10_000;

    private MemoryPhase() {
    }

    private static KeySample sample(RedisConnections redis, UnreadKeys keys, Population population, int users) {
        var sync = redis.shared().sync();
        long setBytes = 0, setEntries = 0, sets = 0, hashBytes = 0, hashFields = 0;
        for (int user = 1; user <= users; user++) {
            hashBytes += sync.memoryUsage(keys.counts(user));
            hashFields += sync.hlen(keys.counts(user));
            for (int author : population.authorsOf().apply(user)) {
                Long bytes = sync.memoryUsage(keys.unread(user, author));
                if (bytes == null) continue; // no unread from that author: no set
                setBytes += bytes;
                setEntries += sync.zcard(keys.unread(user, author));
                sets++;
            }
        }
        return new KeySample((double) setBytes / sets, (double) setEntries / sets, (double) hashBytes / users, (double) hashFields / users);
    }

    static Result run(Population population, long seed, PrintStream err) {
        try (EmbeddedRedis fresh = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(fresh.url(), Duration.ofSeconds(30), false);
             RedisStats stats = new RedisStats(redis)) {
            UnreadKeys keys = new UnreadKeys(UnreadKeys.DEFAULT_PREFIX);
            // Script cache and connection buffers exist before the baseline, so only the data is in the delta.
            redis.shared().sync().scriptLoad(UnreadScript.DELIVER_ONE.body());
            long before = stats.usedMemory();

            SplittableRandom random = new SplittableRandom(seed);
            long written = 0, pairs = 0;
            try (UnreadWriter writer = new UnreadWriter(redis.openBinary(), keys, UnreadLimits.DEFAULTS, MAX_PENDING);
                 ProgressBar bar = new ProgressBar(err, "memory", population.users(), "users")) {
                int maxUnread = population.maxUnread();
                for (int user = 1; user <= population.users(); user++) {
                    for (int author : population.authorsOf().apply(user)) {
                        int unread = population.minUnread() + random.nextInt(maxUnread - population.minUnread() + 1);
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
            long entries = stats.visibleDeliveries(keys, 1, population.users());
            if (entries != written) throw new IllegalStateException("memory: " + entries + " entries visible, wrote " + written);
            long delta = stats.usedMemory() - before;
            return new Result(entries, stats.keys(), delta, pairs, sample(redis, keys, population, Math.min(population.users(), SAMPLED_USERS)));
        }
    }
}
