package io.readmark.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * Draws the figures as a PNG with plain Java2D, headless: four panels (writes, latency, reads, memory), one bar per
 * figure with its value printed (the median, with a whisker over the range of its repetitions), and each target as a
 * dashed line at the value it needs. Panels whose figures span orders of magnitude use a log scale, so the small bars
 * stay readable; the axis says which.
 */
final class BenchChart {

    private static final int WIDTH = 1200, HEIGHT = 820;
    private static final Color INK = new Color(0x22, 0x22, 0x22), GRID = new Color(0xDD, 0xDD, 0xDD);
    private static final Color BAR = new Color(0x3B, 0x6E, 0xA8), BASELINE = new Color(0xB0, 0xB0, 0xB0), TARGET = new Color(0xC0, 0x39, 0x2B);

    /** A bar; {@code low}..{@code high} the range of its repetitions, drawn as a whisker (equal when measured once). */
    private record Bar(String label, double value, double low, double high, boolean ours) {
    }

    private static Bar bar(BenchReport report, String label, String figure, boolean ours) {
        Spread spread = report.spreadOf(figure);
        return new Bar(label, spread.median(), spread.min(), spread.max(), ours);
    }

    static {
        // Java2D must not look for a display: the benchmark runs on servers and CI machines.
        System.setProperty("java.awt.headless", "true");
    }

    private BenchChart() {
    }

    static byte[] render(BenchReport report) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(INK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        String date = String.valueOf(report.runValue("date"));
        g.drawString("Readmark bench — " + report.runValue("mode") + " run, " + report.runValue("cores") + " cores, "
                + (date.length() > 19 ? date.substring(0, 19).replace('T', ' ') + " UTC" : date)
                + (report.runValue("source") == null ? "" : ", source " + report.runValue("source")), 20, 30);

        double ceiling = report.figure("ceiling_deliveries_per_s");
        panel(g, 20, 50, 570, 360, "Writes (deliveries/s)", false, List.of(
                bar(report, "Redis ceiling", "ceiling_deliveries_per_s", false),
                bar(report, "pipeline", "pipeline_deliveries_per_s", true),
                bar(report, "naive (seed 003)", "naive_deliveries_per_s", false),
                bar(report, "big-V fan-out", "bigv_fanout_deliveries_per_s", true)),
                0.6 * ceiling, "target 0.6 x ceiling");
        double idleP99 = report.figure("normal_p99_idle_ms");
        panel(g, 610, 50, 570, 360, "Publish-to-visible, normal author (ms, log)", true, List.of(
                bar(report, "p50 idle", "normal_p50_idle_ms", true),
                bar(report, "p99 idle", "normal_p99_idle_ms", true),
                bar(report, "p99 during big-V", "normal_p99_during_bigv_ms", true)),
                2 * idleP99, "target 2 x idle p99");
        double raw = report.figure("counts_raw_rps");
        panel(g, 20, 440, 570, 360, "Reads (requests/s, medians, log)", true, List.of(
                bar(report, "raw", "counts_raw_rps", false),
                bar(report, "counts", "counts_api_rps", true),
                bar(report, "+notices", "counts_api_notices_rps", true),
                bar(report, "author", "author_page_rps", true),
                bar(report, "items", "items_rps", true),
                bar(report, "push", "push_rps", true),
                bar(report, "seed 000", "seed000_counts_rps", false)),
                0.5 * raw, "target 0.5 x raw");
        panel(g, 610, 440, 570, 360, "Memory (bytes per unread entry)", false, List.of(
                bar(report, "bytes/entry", "bytes_per_unread_entry", true),
                bar(report, "heavy spread", "bytes_per_unread_entry_heavy", true)),
                40, "target <= 40 (heavy: <= 32)");
        g.dispose();
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(image, "png", png);
        return png.toByteArray();
    }

    private static void panel(Graphics2D g, int x, int y, int w, int h, String title, boolean log, List<Bar> bars,
                              double target, String targetLabel) {
        int left = x + 70, right = x + w - 10, top = y + 40, bottom = y + h - 40;
        g.setColor(INK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(title, x + 10, y + 20);
        double max = Math.max(target, bars.stream().mapToDouble(Bar::high).max().orElse(1)) * 1.15;
        double min = log ? Math.pow(10, Math.floor(Math.log10(Math.max(1e-3,
                Math.min(target, bars.stream().mapToDouble(Bar::low).min().orElse(1)))))) : 0;
        Scale scale = new Scale(log, min, max, top, bottom);

        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (double tick : scale.ticks()) {
            int ty = scale.y(tick);
            g.setColor(GRID);
            g.drawLine(left, ty, right, ty);
            g.setColor(INK);
            g.drawString(tickLabel(tick), x + 5, ty + 4);
        }
        int slot = (right - left) / bars.size();
        for (int i = 0; i < bars.size(); i++) {
            Bar bar = bars.get(i);
            int bx = left + i * slot + slot / 5, bw = slot * 3 / 5, by = scale.y(bar.value());
            g.setColor(bar.ours() ? BAR : BASELINE);
            g.fillRect(bx, by, bw, Math.max(1, bottom - by));
            g.setColor(INK);
            int labelY = by;
            if (bar.high() > bar.low()) { // the spread of the repetitions: a whisker from min to max
                int cx = bx + bw / 2, lowY = scale.y(bar.low()), highY = scale.y(bar.high());
                g.drawLine(cx, lowY, cx, highY);
                g.drawLine(cx - 6, lowY, cx + 6, lowY);
                g.drawLine(cx - 6, highY, cx + 6, highY);
                labelY = Math.min(by, highY);
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
            centered(g, BenchReport.format(bar.value()), bx + bw / 2, labelY - 5);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            centered(g, bar.label(), bx + bw / 2, bottom + 16);
        }
        int ty = scale.y(target);
        g.setColor(TARGET);
        g.setStroke(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[]{8f, 6f}, 0f));
        g.drawLine(left, ty, right, ty);
        // The legend sits beside the title, where no bar can cover it.
        g.setFont(new Font(Font.SANS_SERIF, Font.ITALIC, 12));
        int legendX = right - g.getFontMetrics().stringWidth(targetLabel);
        g.drawLine(legendX - 34, y + 16, legendX - 6, y + 16);
        g.setStroke(new BasicStroke(1f));
        g.drawString(targetLabel, legendX, y + 20);
        g.setColor(INK);
        g.drawLine(left, bottom, right, bottom);
    }

    private static String tickLabel(double tick) {
        if (tick == 0) return "0";
        return tick >= 1 ? String.format(java.util.Locale.ROOT, "%,.0f", tick) : String.format(java.util.Locale.ROOT, "%.2g", tick);
    }

    private static void centered(Graphics2D g, String text, int cx, int baseline) {
        g.drawString(text, cx - g.getFontMetrics().stringWidth(text) / 2, baseline);
    }

    /** Maps values to pixel rows, linear from zero or logarithmic from the decade below the smallest value. */
    private record Scale(boolean log, double min, double max, int top, int bottom) {
        int y(double value) {
            double v = Math.max(value, log ? min : 0);
            double fraction = log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : v / max;
            return (int) Math.round(bottom - fraction * (bottom - top));
        }

        List<Double> ticks() {
            if (log) {
                List<Double> ticks = new java.util.ArrayList<>();
                for (double t = min; t <= max; t *= 10) ticks.add(t);
                return ticks;
            }
            double step = Math.pow(10, Math.floor(Math.log10(max / 2)));
            if (max / step > 10) step *= 2;
            List<Double> ticks = new java.util.ArrayList<>();
            for (double t = 0; t <= max; t += step) ticks.add(t);
            return ticks;
        }
    }
}
