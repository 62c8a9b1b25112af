package io.readmark.bench;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadScript;
import io.readmark.store.unread.UnreadWriter;

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
 * per-key overhead; {@link Breakdown} says which keys hold it, and the Redis CPU of the writes says what a layout
 * costs the deliveries.
 */
final class MemoryPhase {

    record Result(long entries, long keys, long usedMemoryDelta, long pairs, Breakdown breakdown, double redisMicrosPerDelivery) {
        double bytesPerEntry() {
            return (double) usedMemoryDelta / entries;
        }
    }

    /**
     * {@code MEMORY USAGE} (value, key name and the keyspace's entry) of sampled users' keys, per unread entry: z (the
     * blog ids by second) and h (each author's packed records and the counts); {@code rest} is the whole population's
     * used_memory delta per entry beyond the sample's keys per entry (the keyspace's table, allocator slack;
     * approximate, as the sample stands for the population). {@code zSkiplistShare} and {@code hHashtableShare}: the
     * share of the sampled users whose z is a skiplist, whose h a hashtable, rather than listpacks.
     */
    record Breakdown(double z, double h, double rest, double entriesPerUserAvg, double zSkiplistShare, double hHashtableShare) {
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

    private static Breakdown breakdown(RedisConnections redis, UnreadKeys keys, int users, double bytesPerEntry) {
        var sync = redis.shared().sync();
        long zBytes = 0, hBytes = 0, sampled = 0, skiplists = 0, hashtables = 0, entries = 0;
        for (int user = 1; user <= users; user++) {
            Long z = sync.memoryUsage(keys.z(user));
            if (z == null) continue; // no unread at all
            sampled++;
            zBytes += z;
            hBytes += sync.memoryUsage(keys.h(user));
            entries += Long.parseLong(sync.hget(keys.h(user), "total"));
            if ("skiplist".equals(sync.objectEncoding(keys.z(user)))) skiplists++;
            if ("hashtable".equals(sync.objectEncoding(keys.h(user)))) hashtables++;
        }
        double sampledEntries = entries;
        double rest = bytesPerEntry - (zBytes + hBytes) / sampledEntries;
        return new Breakdown(zBytes / sampledEntries, hBytes / sampledEntries, rest, sampledEntries / sampled,
                (double) skiplists / sampled, (double) hashtables / sampled);
    }

    /** The population written on a Redis with the listpack thresholds the layout is deployed with. */
    static Result run(Population population, long seed, PrintStream err) {
        try (EmbeddedRedis fresh = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(fresh.url(), Duration.ofSeconds(30), false);
             RedisStats stats = new RedisStats(redis)) {
            UnreadKeys keys = new UnreadKeys(UnreadKeys.DEFAULT_PREFIX);
            // Script cache and connection buffers exist before the baseline, so only the data is in the delta.
            redis.shared().sync().scriptLoad(UnreadScript.DELIVER_ONE.body());
            long before = stats.usedMemory();
            double cpuBefore = stats.cpuSeconds();

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
            double cpuSeconds = stats.cpuSeconds() - cpuBefore;
            long entries = stats.visibleDeliveries(keys, 1, population.users());
            if (entries != written) throw new IllegalStateException("memory: " + entries + " entries visible, wrote " + written);
            long delta = stats.usedMemory() - before;
            Breakdown breakdown = breakdown(redis, keys, Math.min(population.users(), SAMPLED_USERS), (double) delta / entries);
            return new Result(entries, stats.keys(), delta, pairs, breakdown, cpuSeconds * 1e6 / entries);
        }
    }
}
