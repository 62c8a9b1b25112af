package io.readmark.bench;

import io.lettuce.core.ScriptOutputType;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Publishing a broadcast notice to an audience of {@code BENCH_NOTICE_AUDIENCE} members (10,000,000 by default)
 * against one of 10, interleaved, through the writer the processor uses ({@code notice_publish.lua}), on a fresh
 * Redis whose users really are members: read diffusion must cost the same whatever the audience's size. Per
 * repetition, each audience gets {@value #PER_REPETITION} publishes, each awaited on its own: the latency of one, the
 * bytes Redis received and sent for it (from {@code INFO stats}, less what the INFO calls themselves cost),
 * the keys added (none may appear for a member), and {@code MEMORY USAGE} per notice of the audiences' notice sets.
 * Once an audience holds its most live notices (100 by default), each publish also drops its oldest.
 */
final class NoticePublishPhase {

    static final String BIG = "bench-big", SMALL = "bench-small";
    /** A p99 then rests on the ten slowest publishes, not on the slowest one alone. */
    private static final int PER_REPETITION = 1_000;
    private static final int SMALL_MEMBERS = 10;
    private static final int MEMBERS_PER_SCRIPT = 100_000;
    private static final long PUBLISHED_AT = 1_767_225_600_000L;
    /** Makes members in the Redis the phase started itself (no cluster): one audiences hash per user, as joins do. */
    private static final String JOIN_ALL = """
            for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do
              redis.call('HSET', ARGV[3] .. i .. '}:audiences', ARGV[4], 'J1')
            end
            return 0""";

    record Audience(Spread p99Millis, Spread p50Millis, Spread bytesPerPublish) {
    }

    record Result(Audience big, Audience small, Spread p99Ratio, int members, double joinSeconds,
                  double bytesPerLiveNotice, long keysAdded) {
    }

    private NoticePublishPhase() {
    }

    static Result run(BenchConfig config, PrintStream err) {
        try (EmbeddedRedis fresh = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(fresh.url(), Duration.ofSeconds(60), false);
             RedisStats stats = new RedisStats(redis)) {
            UnreadKeys keys = new UnreadKeys(UnreadKeys.DEFAULT_PREFIX);
            int members = config.noticeAudience();
            long joinStart = System.nanoTime();
            join(redis, keys, BIG, 1, members, err);
            join(redis, keys, SMALL, members + 1L, members + SMALL_MEMBERS, err);
            double joinSeconds = (System.nanoTime() - joinStart) / 1e9;

            List<Double> bigP99 = new ArrayList<>(), smallP99 = new ArrayList<>(), bigP50 = new ArrayList<>(), smallP50 = new ArrayList<>();
            List<Double> bigBytes = new ArrayList<>(), smallBytes = new ArrayList<>();
            long keysBefore = stats.keys();
            long noticeId = 1;
            try (UnreadWriter writer = new UnreadWriter(redis.openBinary(), keys, UnreadLimits.DEFAULTS, 1)) {
                for (int repetition = 0; repetition < config.readRepetitions(); repetition++) {
                    for (String audience : List.of(BIG, SMALL)) {
                        Histogram latency = new Histogram(3);
                        long bytes = stats.netBytes();
                        for (int i = 0; i < PER_REPETITION; i++, noticeId++) {
                            long start = System.nanoTime();
                            writer.noticePublished(audience, noticeId, PUBLISHED_AT + noticeId, 0);
                            writer.awaitAcknowledged();
                            latency.recordValue((System.nanoTime() - start) / 1_000);
                        }
                        double perPublish = (stats.netBytes() - bytes - infoCost(stats)) / (double) PER_REPETITION;
                        boolean big = audience.equals(BIG);
                        (big ? bigP99 : smallP99).add(latency.getValueAtPercentile(99) / 1000.0);
                        (big ? bigP50 : smallP50).add(latency.getValueAtPercentile(50) / 1000.0);
                        (big ? bigBytes : smallBytes).add(perPublish);
                    }
                }
            }
            long published = noticeId - 1;
            long keysAdded = stats.keys() - keysBefore;
            // The audiences keep their newest live notices only: what a notice costs is what one kept costs.
            NoticeKeys noticeKeys = new NoticeKeys(keys.prefix());
            long bytes = 0, live = 0;
            for (String audience : List.of(BIG, SMALL)) {
                String notices = noticeKeys.audienceNotices(audience);
                long kept = redis.shared().sync().zcard(notices);
                if (kept != UnreadLimits.DEFAULTS.notices().maxNoticesPerAudience()) {
                    throw new IllegalStateException(audience + " keeps " + kept + " live notices: the publishes did not apply");
                }
                bytes += redis.shared().sync().memoryUsage(notices);
                live += kept;
            }
            double bytesPerLiveNotice = bytes / (double) live;
            err.printf("notices: %,d publishes to %,d and %d members, %d keys added%n", published, members, SMALL_MEMBERS, keysAdded);
            return new Result(new Audience(Spread.of(bigP99), Spread.of(bigP50), Spread.of(bigBytes)),
                    new Audience(Spread.of(smallP99), Spread.of(smallP50), Spread.of(smallBytes)),
                    Spread.ofRatios(bigP99, smallP99), members, joinSeconds, bytesPerLiveNotice, keysAdded);
        }
    }

    /** Users {@code from..to} join the audience: one audiences hash each, written by a server-side loop in batches. */
    private static void join(RedisConnections redis, UnreadKeys keys, String audience, long from, long to, PrintStream err) {
        String userPrefix = keys.prefix() + ":{u:";
        try (ProgressBar bar = new ProgressBar(err, "members of " + audience, to - from + 1, "users")) {
            for (long first = from; first <= to; first += MEMBERS_PER_SCRIPT) {
                long last = Math.min(to, first + MEMBERS_PER_SCRIPT - 1);
                redis.shared().sync().eval(JOIN_ALL, ScriptOutputType.INTEGER, new String[0],
                        Long.toString(first), Long.toString(last), userPrefix, audience);
                bar.update(last - from + 1);
            }
        }
    }

    /** What two {@code INFO stats} calls in a row add to the byte counters: their own requests and replies. */
    private static long infoCost(RedisStats stats) {
        long first = stats.netBytes();
        return stats.netBytes() - first;
    }
}
