package io.readmark.bench;

import io.readmark.bench.layouts.Layout;
import io.readmark.bench.layouts.Layout.Operation;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The layout study's outcome: per spread and layout, every repetition's run, and each figure as the median with the
 * range over them ({@link Spread}). Renders a table, and writes it with a JSON of every run to
 * {@code layouts-latest.txt} / {@code .json} and timestamped copies, beside (never over) the bench's own report.
 */
final class LayoutStudyReport {

    private static final Map<Operation, String> ROWS = rows();
    /** The product's layout and the previous release's, by their names in the study. */
    private static final String PRODUCT = "A", PREVIOUS = "L0";
    /** A big-V's post to a burst of followers in one script: the figure the CPU target is stated for. */
    private static final String BURST_ROW = "big-V delivery (burst of " + LayoutRun.BURST + "), CPU µs";
    /** Wide enough for the longest label. */
    private static final String LABEL = "%-" + (BURST_ROW.length() + 2) + "s";
    /** Where a layout has no such figure, as one without burst delivery. */
    private static final String NONE = "—";

    private final Instant startedAt;
    private final String redisVersion;
    private final LayoutStudyConfig config;
    private final Map<String, String> configOf = new LinkedHashMap<>();
    /** spread → layout → runs, in the order added. */
    private final Map<String, Map<String, List<LayoutRun.Result>>> runs = new LinkedHashMap<>();
    private double seconds;

    LayoutStudyReport(Instant startedAt, String redisVersion, LayoutStudyConfig config, List<Layout> layouts) {
        this.startedAt = startedAt;
        this.redisVersion = redisVersion;
        this.config = config;
        for (Layout layout : layouts) configOf.put(layout.name(), layout.redisConfig().isEmpty() ? "defaults" : layout.redisConfig().toString());
    }

    private static Map<Operation, String> rows() {
        Map<Operation, String> rows = new LinkedHashMap<>();
        rows.put(Operation.DELIVER, "delivery, µs");
        rows.put(Operation.COUNTS, "counts read, µs");
        rows.put(Operation.AUTHOR_PAGE, "author page (20), µs");
        rows.put(Operation.MERGED_PAGE, "merged page (20), µs");
        rows.put(Operation.READ, "read one, µs");
        rows.put(Operation.AUTHOR_READ_ALL, "author read-all, µs");
        rows.put(Operation.ALL_READ, "AllRead, µs");
        return rows;
    }

    void add(String spread, String layout, LayoutRun.Result result) {
        runs.computeIfAbsent(spread, name -> new LinkedHashMap<>()).computeIfAbsent(layout, name -> new ArrayList<>()).add(result);
    }

    void finish(double seconds) {
        this.seconds = seconds;
    }

    private static Spread spread(List<LayoutRun.Result> results, ToDoubleFunction<LayoutRun.Result> value) {
        return Spread.of(results.stream().map(result -> value.applyAsDouble(result)).toList());
    }

    String table() {
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%nRedis layout study — %s, Redis %s, %d repetitions, %.0f s%n", startedAt, redisVersion,
                config.repetitions(), seconds));
        configOf.forEach((layout, settings) -> table.append(String.format(Locale.ROOT, "  %-3s Redis settings: %s%n", layout, settings)));
        table.append("  figures: median (min–max) over the repetitions; µs = Redis time per operation, INFO commandstats usec of\n"
                + "  the commands sent; CPU µs = redis-server's CPU time (requests and replies included, waits for a core not)\n");
        runs.forEach((spread, byLayout) -> {
            LayoutRun.Result first = byLayout.values().iterator().next().getFirst();
            table.append(String.format(Locale.ROOT, "%n%s: %,.0f users with unread, %.1f unread over %.1f authors each%n", spread,
                    first.usersWithUnread(), first.entries() / first.usersWithUnread(), first.authorsPerUser()));
            table.append(String.format(Locale.ROOT, LABEL, "figure"));
            byLayout.keySet().forEach(layout -> table.append(String.format(Locale.ROOT, "%-22s", layout)));
            table.append('\n');
            row(table, "bytes per entry", byLayout, LayoutRun.Result::bytesPerEntry);
            ROWS.forEach((operation, label) -> row(table, label, byLayout, result -> result.micros().get(operation)));
            row(table, "delivery, CPU µs", byLayout, result -> result.cpuMicros().get(Operation.DELIVER));
            row(table, BURST_ROW, byLayout, result -> result.cpuMicros().get(Operation.DELIVER_BURST));
            productOverPrevious(table, byLayout);
        });
        return table.toString();
    }

    /** The targets are stated against the previous release's layout: A's figures over L0's, repetition by repetition. */
    private static void productOverPrevious(StringBuilder table, Map<String, List<LayoutRun.Result>> byLayout) {
        List<LayoutRun.Result> product = byLayout.get(PRODUCT), previous = byLayout.get(PREVIOUS);
        table.append(String.format(Locale.ROOT, LABEL + "bytes per entry %s, delivery CPU µs %s, big-V delivery CPU µs %s%n",
                PRODUCT + " / " + PREVIOUS, ratio(product, previous, LayoutRun.Result::bytesPerEntry),
                ratio(product, previous, result -> result.cpuMicros().get(Operation.DELIVER)),
                ratio(product, previous, result -> result.cpuMicros().get(Operation.DELIVER_BURST))));
    }

    /** The ratio's spread, or {@value #NONE} when a run of either side has no such figure. */
    private static String ratio(List<LayoutRun.Result> numerators, List<LayoutRun.Result> denominators,
                                Function<LayoutRun.Result, Double> value) {
        List<Double> above = values(numerators, value), below = values(denominators, value);
        return above == null || below == null ? NONE : Spread.ofRatios(above, below).toString();
    }

    /** Every run's figure, or null when one has none. */
    private static List<Double> values(List<LayoutRun.Result> results, Function<LayoutRun.Result, Double> value) {
        List<Double> values = results.stream().map(value).toList(); // toList keeps nulls
        return values.contains(null) ? null : values;
    }

    private static void row(StringBuilder table, String label, Map<String, List<LayoutRun.Result>> byLayout,
                            Function<LayoutRun.Result, Double> value) {
        table.append(String.format(Locale.ROOT, LABEL, label));
        byLayout.values().forEach(results -> {
            List<Double> values = values(results, value);
            table.append(String.format(Locale.ROOT, "%-22s", values == null ? NONE : Spread.of(values)));
        });
        table.append('\n');
    }

    Map<String, Object> toMap() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("date", startedAt.toString());
        root.put("redis_version", redisVersion);
        root.put("config", config.toString());
        root.put("duration_s", seconds);
        root.put("redis_settings", configOf);
        Map<String, Object> spreads = new LinkedHashMap<>();
        runs.forEach((spread, byLayout) -> {
            Map<String, Object> layouts = new LinkedHashMap<>();
            byLayout.forEach((layout, results) -> {
                Map<String, Object> figures = new LinkedHashMap<>();
                figures.put("bytes_per_entry", spread(results, LayoutRun.Result::bytesPerEntry).toMap());
                for (Operation operation : Operation.values()) {
                    String name = operation.name().toLowerCase(Locale.ROOT);
                    List<Double> micros = values(results, result -> result.micros().get(operation)),
                            cpuMicros = values(results, result -> result.cpuMicros().get(operation));
                    if (micros != null) figures.put(name + "_us", Spread.of(micros).toMap());
                    if (cpuMicros != null) figures.put(name + "_cpu_us", Spread.of(cpuMicros).toMap());
                }
                figures.put("entries", results.getFirst().entries());
                figures.put("users_with_unread", results.getFirst().usersWithUnread());
                figures.put("authors_per_user", results.getFirst().authorsPerUser());
                layouts.put(layout, figures);
            });
            spreads.put(spread, layouts);
        });
        root.put("spreads", spreads);
        return root;
    }

    /** layouts-latest.txt and .json, and copies stamped with the start time; returns the files written. */
    List<Path> write(Path directory) throws IOException {
        return ReportFiles.write(directory, "layouts", startedAt, table(), toMap());
    }
}
