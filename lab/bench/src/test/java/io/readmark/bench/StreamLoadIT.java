package io.readmark.bench;

import io.readmark.common.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream load phase at a tiny size, end to end: a real view API and Redis, the holders in a JVM of their own.
 * Every stream opens, none is closed by the server, every change reaches its client as a timed push, and every stream
 * comes back after the view API restarts.
 */
class StreamLoadIT {

    @TempDir
    private Path output;

    @Test
    void shouldHoldEveryStreamAndTimeThePushOfEveryChange() throws Exception {
        Settings settings = Settings.of(Map.of("BENCH_STREAMS_COUNTS", "40", "BENCH_STREAMS_IDLE", "PT1S",
                "BENCH_STREAMS_LOAD", "PT2S", "BENCH_STREAMS_CHANGE_RATE", "50", "BENCH_STREAMS_LIVE_FRACTION", "0.5",
                "BENCH_OUTPUT_DIR", output.toString()), Map.of());

        StreamLoad.Report report = StreamLoad.run(settings, new PrintStream(OutputStream.nullOutputStream()), System.err);

        StreamRound.Result round = report.rounds().getFirst();
        assertThat(round.opened()).isEqualTo(40);
        assertThat(round.refused()).isZero();
        assertThat(round.endedByServer()).isZero();
        assertThat(round.droppedByReason()).isEmpty();
        // 100 changes over 20 users, one in flight per user: most are made, and each made one is pushed.
        assertThat(round.pushes()).isGreaterThan(20);
        assertThat(round.missing()).isZero();
        assertThat(round.p99Millis()).isPositive();
        // One post to all 40 reaches every one of them, after its deliveries were made.
        assertThat(round.burst().users()).isEqualTo(40);
        assertThat(round.burst().missing()).isZero();
        assertThat(round.burst().lastAfterDeliveriesMillis()).isGreaterThan(-round.burst().deliveriesMillis());
        // The view API restarted under 40 streams: every one came back, and reads meanwhile were never a 5xx.
        StreamStorm.Result storm = report.storm();
        assertThat(storm.opened()).isEqualTo(40);
        assertThat(storm.back()).isEqualTo(40);
        assertThat(storm.allBackSeconds()).isPositive();
        assertThat(storm.reads5xx()).isZero();
        assertThat(output.resolve("streams-latest.txt")).content().contains("streams").contains("40");
    }
}
