package io.readmark.bench;

import io.readmark.common.config.Settings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Sizes of the stream load phase ({@code ./readmark bench --streams}).
 *
 * @param streams      the stream counts measured, one round each, in order ({@code BENCH_STREAMS_COUNTS}, e.g. {@code 1000,5000})
 * @param idle         how long each round holds its streams with no change: a heartbeat at the default, so every
 *                     stream gets its comment line and its user's live key its refresh
 * @param changeRate   changes per second, open loop, during each round's load window
 * @param liveFraction the share of a round's streamed users the changes go to, in turn
 * @param load         how long each round's changes are made
 * @param storm        streams held while the view API restarts ({@link StreamStorm}); 0 for no storm
 * @param outputDir    where streams-latest.txt and .json go
 * @param jfrDirectory if set, a JFR recording of each round's idle window goes there
 */
record StreamLoadConfig(List<Integer> streams, Duration idle, int changeRate, double liveFraction, Duration load, int storm,
                        Path outputDir, Optional<Path> jfrDirectory) {

    StreamLoadConfig {
        if (streams.isEmpty() || streams.stream().anyMatch(count -> count < 1)) {
            throw new IllegalArgumentException("BENCH_STREAMS_COUNTS must be positive integers, comma-separated");
        }
        if (storm < 0) throw new IllegalArgumentException("BENCH_STREAMS_STORM must be 0 or a positive integer");
        if (!(liveFraction > 0 && liveFraction <= 1)) throw new IllegalArgumentException("BENCH_STREAMS_LIVE_FRACTION must be in (0, 1]");
    }

    static StreamLoadConfig from(Settings settings) {
        String counts = settings.string("BENCH_STREAMS_COUNTS", "1000,5000,10000");
        List<Integer> streams;
        try {
            streams = Arrays.stream(counts.split(",")).map(String::strip).map(Integer::valueOf).toList();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("BENCH_STREAMS_COUNTS must be positive integers, comma-separated, was '" + counts + "'");
        }
        return new StreamLoadConfig(streams,
                settings.duration("BENCH_STREAMS_IDLE", Duration.ofSeconds(30)),
                settings.positiveInteger("BENCH_STREAMS_CHANGE_RATE", 1_000),
                Double.parseDouble(settings.string("BENCH_STREAMS_LIVE_FRACTION", "0.1")),
                settings.duration("BENCH_STREAMS_LOAD", Duration.ofSeconds(20)),
                settings.integer("BENCH_STREAMS_STORM", streams.stream().mapToInt(Integer::intValue).max().orElseThrow()),
                Path.of(settings.string("BENCH_OUTPUT_DIR", "bench-results")),
                settings.find("BENCH_JFR").map(Path::of));
    }
}
