package io.readmark.common.console;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long operator command on stderr. On a terminal, one line redrawn in place with {@code \r} at most five
 * times a second; otherwise (a log file, a CI job, a pipe) a plain line every {@code interval}, so the output stays
 * readable where {@code \r} is not. Shows done / total with a bar, the rate and the time left when the total is known,
 * the count and the rate when it is not, and a note (the current phase, drift found so far). The rate counts from the
 * first progress reported, so a slow start (connecting, joining a group) does not make the first ETAs absurd.
 */
public final class ProgressLine implements AutoCloseable {

    /** The total when it is not known: no bar, no percentage, no ETA. */
    public static final long UNKNOWN_TOTAL = -1;

    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintStream out;
    private final boolean terminal;
    private final String label;
    private final String unit;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private long lastDrawNanos;
    /** When progress was first reported, and how much: the rate counts from there, not from a slow start-up. */
    private long firstProgressNanos = -1;
    private long firstDone;
    private int lastLength;
    private long done;
    private long total = UNKNOWN_TOTAL;
    private String note = "";
    private boolean closed;

    /**
     * @param terminal redraw one line with {@code \r}; otherwise print a line every {@code interval}
     * @param nanoClock {@link System#nanoTime()} outside tests
     */
    public ProgressLine(PrintStream out, boolean terminal, String label, String unit, Duration interval, LongSupplier nanoClock) {
        this.out = out;
        this.terminal = terminal;
        this.label = label;
        this.unit = unit;
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.lastDrawNanos = startNanos;
    }

    /** On this process's stderr, redrawn in place when stderr is a terminal. */
    public static ProgressLine onStderr(String label, String unit, Duration interval) {
        return new ProgressLine(System.err, stderrIsTerminal(), label, unit, interval, System::nanoTime);
    }

    /**
     * True when file descriptor 2 is a terminal. {@link System#console()} answers for stdin and stdout, not stderr, so
     * the descriptor's target is asked where the platform shows it ({@code /proc}); elsewhere the console decides.
     */
    public static boolean stderrIsTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        try {
            if (Files.isSymbolicLink(fd)) {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (Exception e) {
            // fall through to the console
        }
        return System.console() != null;
    }

    /** Records progress and draws it if it is time: at most five times a second on a terminal, else every interval. */
    public synchronized void update(long done, long total, String note) {
        if (closed) return;
        this.done = done;
        this.total = total;
        this.note = note == null ? "" : note;
        long now = nanoClock.getAsLong();
        if (firstProgressNanos < 0 && done > 0) {
            firstProgressNanos = now;
            firstDone = done;
        }
        if (now - lastDrawNanos >= (terminal ? REDRAW_NANOS : intervalNanos)) draw(now);
    }

    /** Draws the last state (on a terminal the line is ended) and stops drawing. */
    @Override
    public synchronized void close() {
        if (closed) return;
        draw(nanoClock.getAsLong());
        if (terminal) out.println();
        out.flush();
        closed = true;
    }

    private void draw(long now) {
        lastDrawNanos = now;
        double seconds = firstProgressNanos < 0 ? 0 : (now - firstProgressNanos) / 1e9;
        double rate = seconds > 0 ? (done - firstDone) / seconds : 0;
        String line = render(label, done, total, unit, rate, Duration.ofNanos(now - startNanos), note);
        if (terminal) {
            // Blank out what is left of a longer previous line.
            out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    /**
     * {@code rebuild [##########....................]  34%  12,345/36,000 records  5,230/s  ETA 0:00:04  elapsed 0:00:02  reads},
     * or without a known total {@code reconcile  123,456 keys  45,000/s  elapsed 0:00:02  3 users drifted}.
     */
    public static String render(String label, long done, long total, String unit, double rate, Duration elapsed, String note) {
        long seconds = elapsed.toSeconds();
        StringBuilder line = new StringBuilder(label);
        if (total >= 0) {
            double fraction = total == 0 ? 1.0 : Math.min(1.0, Math.max(0.0, (double) done / total));
            int filled = (int) Math.round(fraction * WIDTH);
            line.append(String.format(Locale.ROOT, " [%s%s] %3d%%  %,d/%,d %s  %,.0f/s", "#".repeat(filled),
                    ".".repeat(WIDTH - filled), (int) Math.floor(fraction * 100), done, total, unit, rate));
            line.append("  ETA ").append(done >= total ? "0:00:00" : rate > 0 ? clock((long) ((total - done) / rate)) : "-");
        } else {
            line.append(String.format(Locale.ROOT, "  %,d %s  %,.0f/s", done, unit, rate));
        }
        line.append("  elapsed ").append(clock(seconds));
        if (!note.isEmpty()) line.append("  ").append(note);
        return line.toString();
    }

    /** Seconds as {@code h:mm:ss}. */
    public static String clock(long seconds) {
        return String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}
