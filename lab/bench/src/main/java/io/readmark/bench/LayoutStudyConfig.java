package io.readmark.bench;

import io.readmark.common.config.Settings;

import java.nio.file.Path;

/**
 * Sizes of the Redis layout study ({@code ./readmark bench --layouts}): users per spread, repetitions and operations
 * measured. Each spread's users are enough for the per-key and per-table overheads to be spread as they would be on a
 * larger Redis, and few enough that the whole study takes a couple of minutes on two cores.
 *
 * @param lightUsers  users of the light spread: the platform's, from the bench's follower graph (1..4 unread per author)
 * @param heavyUsers  users of the heavy spread: each with 20..40 unread from each of 10 authors
 * @param tinyUsers   users of the tiny spread: one or two authors, 1..3 unread from each
 * @param repetitions interleaved repetitions: within each, the layouts take turns on every spread
 * @param operations  users each read and write operation is measured on (at most a third of a spread's users each)
 * @param seed        the bench's seed, for the graph and the unread counts
 * @param outputDir   where layouts-latest.txt and .json and timestamped copies go
 */
record LayoutStudyConfig(int lightUsers, int heavyUsers, int tinyUsers, int repetitions, int operations, long seed, Path outputDir) {

    static LayoutStudyConfig from(Settings settings) {
        return new LayoutStudyConfig(
                settings.positiveInteger("BENCH_LAYOUT_LIGHT_USERS", 3_000),
                settings.positiveInteger("BENCH_LAYOUT_HEAVY_USERS", 1_000),
                settings.positiveInteger("BENCH_LAYOUT_TINY_USERS", 5_000),
                settings.positiveInteger("BENCH_LAYOUT_REPETITIONS", 3),
                settings.positiveInteger("BENCH_LAYOUT_OPERATIONS", 600),
                settings.longValue("BENCH_SEED", 20260101L),
                Path.of(settings.string("BENCH_OUTPUT_DIR", "bench-results")));
    }
}
