package io.readmark.common.console;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressLineTest {

    private static final long SECOND = 1_000_000_000L;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);

    @Test
    void shouldShowDoneTotalRateAndTimeLeft() {
        assertThat(ProgressLine.render("rebuild", 2_500, 10_000, "records", 500, Duration.ofSeconds(5), "graph and posts"))
                .isEqualTo("rebuild [########......................]  25%  2,500/10,000 records  500/s  ETA 0:00:15"
                        + "  elapsed 0:00:05  graph and posts");
        assertThat(ProgressLine.render("rebuild", 10_000, 10_000, "records", 500, Duration.ofSeconds(20), ""))
                .isEqualTo("rebuild [##############################] 100%  10,000/10,000 records  500/s  ETA 0:00:00"
                        + "  elapsed 0:00:20");
        assertThat(ProgressLine.render("rebuild", 0, 10, "records", 0, Duration.ZERO, ""))
                .as("no rate yet: no ETA either").contains("  0/10 records  0/s  ETA -  ");
        assertThat(ProgressLine.render("rebuild", 0, 0, "records", 0, Duration.ofSeconds(1), ""))
                .as("nothing to do is done").contains("] 100%  0/0 records");
    }

    @Test
    void shouldShowCountAndRateWhenTheTotalIsUnknown() {
        assertThat(ProgressLine.render("reconcile", 123_456, ProgressLine.UNKNOWN_TOTAL, "keys", 61_728,
                Duration.ofSeconds(2), "3 users drifted"))
                .isEqualTo("reconcile  123,456 keys  61,728/s  elapsed 0:00:02  3 users drifted");
        assertThat(ProgressLine.clock(3_725)).isEqualTo("1:02:05");
    }

    @Test
    void shouldRedrawOneLineInPlaceOnATerminalAtMostFiveTimesASecond() {
        // Given a progress line on a terminal
        ProgressLine progress = new ProgressLine(out, true, "rebuild", "records", Duration.ofSeconds(10), clock::get);

        // When it is updated often, then closed
        clock.addAndGet(SECOND);
        progress.update(100, 1_000, "a long phase name");
        progress.update(150, 1_000, "");             // too soon: not drawn
        clock.addAndGet(SECOND / 10);
        progress.update(200, 1_000, "");             // still too soon
        clock.addAndGet(SECOND);
        progress.update(1_000, 1_000, "done");
        progress.close();

        // Then each redraw starts with \r, a shorter line blanks out the rest of a longer one, and close ends the line
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("150/1,000").doesNotContain("200/1,000");
        assertThat(text.split("\r", -1)).hasSize(4); // "", the first draw, the update, close's final draw
        assertThat(text).startsWith("\rrebuild [###").contains("100/1,000 records").endsWith("done\n");
        String first = text.split("\r")[1];
        String second = text.split("\r")[2];
        assertThat(second.length()).as("padded to the first line's length").isGreaterThanOrEqualTo(first.length());
    }

    @Test
    void shouldPrintAPlainLineEveryIntervalWhenNotOnATerminal() {
        // Given a progress line writing to a file or a pipe, every 10 s
        ProgressLine progress = new ProgressLine(out, false, "reconcile", "keys", Duration.ofSeconds(10), clock::get);

        // When it is updated every second for 25 s, then closed
        for (int s = 1; s <= 25; s++) {
            clock.addAndGet(SECOND);
            progress.update(s * 1_000L, ProgressLine.UNKNOWN_TOTAL, "");
        }
        progress.close();
        progress.update(99_000, ProgressLine.UNKNOWN_TOTAL, ""); // after close: ignored

        // Then there is one line at 10 s, one at 20 s and the final one, without any \r; the rate counts from the first
        // progress (1,000 keys at 1 s)
        assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("\r").isEqualTo("""
                reconcile  10,000 keys  1,000/s  elapsed 0:00:10
                reconcile  20,000 keys  1,000/s  elapsed 0:00:20
                reconcile  25,000 keys  1,000/s  elapsed 0:00:25
                """);
    }

    @Test
    void shouldMeasureTheRateFromTheFirstProgressNotFromASlowStart() {
        // Given a command that needs 30 s before the first record is done, then does 100 a second
        ProgressLine progress = new ProgressLine(out, false, "rebuild", "records", Duration.ofSeconds(10), clock::get);
        clock.addAndGet(30 * SECOND);
        progress.update(0, 2_000, "");
        progress.update(100, 2_000, "");
        clock.addAndGet(10 * SECOND);

        // When it reports 1,100 done
        progress.update(1_100, 2_000, "");

        // Then the rate is 100/s and the ETA 9 s, not 1,100 / 40 s
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList().getLast())
                .contains("1,100/2,000 records  100/s  ETA 0:00:09  elapsed 0:00:40");
    }
}
