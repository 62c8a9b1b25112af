package io.readmark.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * One line on stderr redrawn in place with {@code \r}, at most five times a second, so a long phase shows that it
 * moves and how far it is without flooding a log. {@link #close()} draws the final state and ends the line.
 */
final class ProgressBar implements AutoCloseable {

    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintStream out;
    private final String label;
    private final long total;
    private final String unit;
    private final long startNanos = System.nanoTime();
    private long lastDraw;
    private long done;

    ProgressBar(PrintStream out, String label, long total, String unit) {
        this.out = out;
        this.label = label;
        this.total = Math.max(1, total);
        this.unit = unit;
        draw();
    }

    /** Records progress; redraws only if the last redraw is old enough. */
    synchronized void update(long done) {
        this.done = done;
        long now = System.nanoTime();
        if (now - lastDraw >= REDRAW_NANOS) draw();
    }

    static String render(String label, long done, long total, String unit, double seconds) {
        double fraction = Math.min(1.0, Math.max(0.0, (double) done / total));
        int filled = (int) Math.round(fraction * WIDTH);
        return String.format(Locale.ROOT, "%-10s [%s%s] %3d%%  %,d/%,d %s  %.1f s", label, "#".repeat(filled),
                ".".repeat(WIDTH - filled), Math.round(fraction * 100), done, total, unit, seconds);
    }

    private void draw() {
        lastDraw = System.nanoTime();
        out.print("\r" + render(label, done, total, unit, (lastDraw - startNanos) / 1e9));
        out.flush();
    }

    @Override
    public synchronized void close() {
        draw();
        out.println();
    }
}
