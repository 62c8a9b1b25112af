package io.readmark.bench;

import io.readmark.common.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream load phase at a tiny size, end to end: a real view API and Redis, the holders in a JVM of their own.
 * Every stream opens, none is closed by the server, and every change reaches its client as a timed push.
 */
class StreamLoadIT {

    @TempDir
    private Path output;

    @Test
    void shouldHoldEveryStreamAndTimeThePushOfEveryChange() throws Exception {
        Settings settings = Settings.of(Map.of("BENCH_STREAMS_COUNTS", "40", "BENCH_STREAMS_IDLE", "PT1S",
                "BENCH_STREAMS_LOAD", "PT2S", "BENCH_STREAMS_CHANGE_RATE", "50", "BENCH_STREAMS_LIVE_FRACTION", "0.5",
                "BENCH_OUTPUT_DIR", output.toString()), Map.of());

        List<StreamRound.Result> rounds = StreamLoad.run(settings, new PrintStream(OutputStream.nullOutputStream()), System.err);

        StreamRound.Result round = rounds.getFirst();
        assertThat(round.opened()).isEqualTo(40);
        assertThat(round.refused()).isZero();
        assertThat(round.endedByServer()).isZero();
        assertThat(round.droppedByReason()).isEmpty();
        // 100 changes over 20 users, one in flight per user: most are made, and each made one is pushed.
        assertThat(round.pushes()).isGreaterThan(20);
        assertThat(round.missing()).isZero();
        assertThat(round.p99Millis()).isPositive();
        assertThat(output.resolve("streams-latest.txt")).content().contains("streams").contains("40");
    }
}
