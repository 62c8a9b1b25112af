package io.readmark.bench;

import io.readmark.common.config.Settings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sizes and durations of one benchmark run. {@code BENCH_QUICK=true} ({@code --quick}) picks smaller sizes for a
 * shorter run, the default the full run; every value has its own {@code BENCH_*} setting, so a smoke test or a
 * bigger machine can change one without touching the others.
 *
 * @param users              platform users (ids 1..users); every one follows some authors
 * @param authors            authors (ids 1..authors, also users); follower counts follow a power law
 * @param followsPerUser     mean number of authors a user follows (log-normal spread)
 * @param exponent           Zipf exponent of author popularity: the r-th most popular author gets ∝ r^-exponent follows
 * @param postsPerAuthor     posts every author publishes in the write phases
 * @param writeRepetitions   interleaved repetitions of the write measurements (ceiling, naive and pipeline); each ratio
 *                           is taken within a repetition, and reported as median and range
 * @param latencyRounds      rounds of the latency phase, each an idle window then a big-V window; more than the writes
 *                           get, because a p99 of a few hundred probes is the noisiest figure: the range of five
 *                           covers the median 15 times in 16, of three 3 times in 4
 * @param naiveDuration      how long the naive baseline runs (it is far too slow to finish the workload)
 * @param normalFollowers    follower count of the "normal" authors whose posts the latency phase times
 * @param probeAuthors       how many such authors the probes rotate through
 * @param probeInterval      one probe post every interval, open loop
 * @param idleDuration       how long the idle latency run issues probes
 * @param bigvFollowers      audience of the big-V author (user ids 1..bigvFollowers)
 * @param bigvPosts          posts the big-V publishes at once; probes run while their fan-out is in flight
 * @param readWarmup         unmeasured load before each read measurement (JIT, connection pools)
 * @param readDuration       measured load per read variant and repetition
 * @param readConcurrency    concurrent clients of each read variant
 * @param readRepetitions    interleaved repetitions of the read variants (and of the server comparison); the report
 *                           gives the median and the range over them
 * @param readSlices         slices each read measurement is cut into, the variants taking turns slice by slice within
 *                           a repetition, each slice with its share of the warm-up and of the duration: a slow stretch
 *                           of the machine a few seconds long is then spread over several variants instead of one
 * @param notices            notices (bitmaps) of the seed 000 count
 * @param noticeAudience     members of the audience the notice publish phase broadcasts to
 * @param memoryUsers        users written in the memory phase
 * @param memoryMaxUnread    each (user, followed author) gets 1..memoryMaxUnread unread posts
 * @param outputDir          where latest.json, latest.png and the timestamped copies go
 * @param jfrDirectory       if set, JFR recordings of the pipeline, big-V latency and every read measurement go there
 */
public record BenchConfig(boolean quick, long seed, int users, int authors, double followsPerUser, double exponent,
                          int postsPerAuthor, int writeRepetitions, int latencyRounds, Duration naiveDuration, int normalFollowers,
                          int probeAuthors, Duration probeInterval, Duration idleDuration, int bigvFollowers,
                          int bigvPosts, Duration readWarmup, Duration readDuration, int readConcurrency, int readRepetitions,
                          int readSlices, int notices, int noticeAudience,
                          int memoryUsers, int memoryMaxUnread, Path outputDir, Optional<Path> jfrDirectory) {

    public BenchConfig {
        if (authors > users) throw new IllegalArgumentException("BENCH_AUTHORS must not exceed BENCH_USERS");
        if (authors < 2) throw new IllegalArgumentException("BENCH_AUTHORS must be at least 2");
        if (memoryUsers > users) throw new IllegalArgumentException("BENCH_MEMORY_USERS must not exceed BENCH_USERS");
        if (readRepetitions < 1) throw new IllegalArgumentException("BENCH_READ_REPETITIONS must be at least 1");
        if (readSlices < 1) throw new IllegalArgumentException("BENCH_READ_SLICES must be at least 1");
        if (writeRepetitions < 1) throw new IllegalArgumentException("BENCH_WRITE_REPETITIONS must be at least 1");
        if (latencyRounds < 1) throw new IllegalArgumentException("BENCH_LATENCY_ROUNDS must be at least 1");
        if (followsPerUser <= 0 || exponent <= 0) {
            throw new IllegalArgumentException("BENCH_FOLLOWS_PER_USER and BENCH_EXPONENT must be positive");
        }
    }

    public static BenchConfig from(Settings settings) {
        boolean quick = settings.bool("BENCH_QUICK", false);
        int users = settings.positiveInteger("BENCH_USERS", quick ? 20_000 : 100_000);
        return new BenchConfig(
                quick,
                settings.longValue("BENCH_SEED", 20260101L),
                users,
                settings.positiveInteger("BENCH_AUTHORS", quick ? 2_000 : 10_000),
                decimal(settings, "BENCH_FOLLOWS_PER_USER", 20),
                decimal(settings, "BENCH_EXPONENT", 0.9),
                settings.positiveInteger("BENCH_POSTS_PER_AUTHOR", 1),
                settings.positiveInteger("BENCH_WRITE_REPETITIONS", 3),
                settings.positiveInteger("BENCH_LATENCY_ROUNDS", 5),
                settings.duration("BENCH_NAIVE_DURATION", Duration.ofSeconds(quick ? 8 : 20)),
                settings.positiveInteger("BENCH_NORMAL_FOLLOWERS", 100),
                settings.positiveInteger("BENCH_PROBE_AUTHORS", 16),
                settings.duration("BENCH_PROBE_INTERVAL", Duration.ofMillis(10)),
                settings.duration("BENCH_IDLE_DURATION", Duration.ofSeconds(quick ? 10 : 20)),
                settings.positiveInteger("BENCH_BIGV_FOLLOWERS", quick ? 200_000 : 1_000_000),
                settings.positiveInteger("BENCH_BIGV_POSTS", 2),
                settings.duration("BENCH_READ_WARMUP", Duration.ofSeconds(quick ? 1 : 2)),
                settings.duration("BENCH_READ_DURATION", Duration.ofSeconds(quick ? 5 : 6)),
                settings.positiveInteger("BENCH_READ_CONCURRENCY", 8),
                settings.positiveInteger("BENCH_READ_REPETITIONS", quick ? 3 : 5),
                settings.positiveInteger("BENCH_READ_SLICES", 5),
                settings.positiveInteger("BENCH_NOTICES", 1_000),
                settings.positiveInteger("BENCH_NOTICE_AUDIENCE", 10_000_000),
                // Never more than the platform has, unless set: a smaller platform alone needs no second setting.
                settings.positiveInteger("BENCH_MEMORY_USERS", Math.min(users, quick ? 10_000 : 50_000)),
                settings.positiveInteger("BENCH_MEMORY_MAX_UNREAD", 4),
                Path.of(settings.string("BENCH_OUTPUT_DIR", "bench-results")),
                settings.find("BENCH_JFR").map(Path::of));
    }

    public String mode() {
        return quick ? "quick" : "full";
    }

    /** Every value under its setting name, as plain JSON-friendly values, for the report. */
    public Map<String, Object> describe() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("BENCH_QUICK", quick);
        values.put("BENCH_SEED", seed);
        values.put("BENCH_USERS", users);
        values.put("BENCH_AUTHORS", authors);
        values.put("BENCH_FOLLOWS_PER_USER", followsPerUser);
        values.put("BENCH_EXPONENT", exponent);
        values.put("BENCH_POSTS_PER_AUTHOR", postsPerAuthor);
        values.put("BENCH_WRITE_REPETITIONS", writeRepetitions);
        values.put("BENCH_LATENCY_ROUNDS", latencyRounds);
        values.put("BENCH_NAIVE_DURATION", naiveDuration.toString());
        values.put("BENCH_NORMAL_FOLLOWERS", normalFollowers);
        values.put("BENCH_PROBE_AUTHORS", probeAuthors);
        values.put("BENCH_PROBE_INTERVAL", probeInterval.toString());
        values.put("BENCH_IDLE_DURATION", idleDuration.toString());
        values.put("BENCH_BIGV_FOLLOWERS", bigvFollowers);
        values.put("BENCH_BIGV_POSTS", bigvPosts);
        values.put("BENCH_READ_WARMUP", readWarmup.toString());
        values.put("BENCH_READ_DURATION", readDuration.toString());
        values.put("BENCH_READ_CONCURRENCY", readConcurrency);
        values.put("BENCH_READ_REPETITIONS", readRepetitions);
        values.put("BENCH_READ_SLICES", readSlices);
        values.put("BENCH_NOTICES", notices);
        values.put("BENCH_NOTICE_AUDIENCE", noticeAudience);
        values.put("BENCH_MEMORY_USERS", memoryUsers);
        values.put("BENCH_MEMORY_MAX_UNREAD", memoryMaxUnread);
        return values;
    }

    private static double decimal(Settings settings, String name, double defaultValue) {
        String raw = settings.string(name, null);
        if (raw == null) return defaultValue;
        try {
            return Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, was '" + raw + "'");
        }
    }
}
