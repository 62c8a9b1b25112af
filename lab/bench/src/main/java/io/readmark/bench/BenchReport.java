package io.readmark.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.readmark.schemas.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of one run: the figures its targets are about (every one measured, none derived from another, except a
 * ratio taken within each repetition), the targets they are held to, and the context needed to read them. A figure
 * measured in interleaved repetitions is their median, printed with its range. Renders a table, JSON ({@code latest.json} plus a
 * timestamped copy) and a PNG chart. A figure that is missing or not positive makes the report refuse to write.
 */
public final class BenchReport {

    /** A measured figure: JSON name, unit, and what it is, for the table. */
    public record Figure(String name, String unit, String description) {
    }

    /** What a run says of a target: only a spread wholly on one side of it decides. */
    public enum Verdict {
        MET("met"), NOT_MET("NOT MET"), INCONCLUSIVE("inconclusive");

        private final String label;

        Verdict(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * A target: {@code value} (a ratio or an absolute; the median where repeated) against {@code threshold}, with the
     * range {@code low}..{@code high} the repetitions spanned ({@code low == high} for a figure measured once).
     */
    public record Target(String rule, double value, double low, double high, int repetitions, double threshold, boolean atLeast) {

        public Verdict verdict() {
            boolean lowMeets = atLeast ? low >= threshold : low <= threshold;
            boolean highMeets = atLeast ? high >= threshold : high <= threshold;
            if (lowMeets && highMeets) return Verdict.MET;
            return lowMeets || highMeets ? Verdict.INCONCLUSIVE : Verdict.NOT_MET;
        }
    }

    public static final List<Figure> FIGURES = List.of(
            new Figure("ceiling_deliveries_per_s", "deliveries/s", "Redis alone: delivery script sent by redis-cli --pipe"),
            new Figure("naive_deliveries_per_s", "deliveries/s", "seed 003: SADD, HGET, HSET, EXPIRE x2, sync, 1 thread"),
            new Figure("pipeline_deliveries_per_s", "deliveries/s", "Kafka -> processor -> Redis, counted in Redis"),
            new Figure("pipeline_ceiling_ratio", "ratio", "pipeline / ceiling within each repetition"),
            new Figure("pipeline_naive_ratio", "ratio", "pipeline / naive within each repetition"),
            new Figure("normal_p50_idle_ms", "ms", "normal author (~100 followers), idle, p50"),
            new Figure("normal_p99_idle_ms", "ms", "normal author, idle, p99"),
            new Figure("normal_p99_during_bigv_ms", "ms", "normal author while a big-V fan-out runs, p99"),
            new Figure("bigv_isolation_ratio", "ratio", "p99 during big-V / idle p99 within each repetition"),
            new Figure("bigv_fanout_s", "s", "big-V posts: publish until every delivery is visible"),
            new Figure("bigv_fanout_deliveries_per_s", "deliveries/s", "big-V fan-out rate"),
            new Figure("counts_api_rps", "requests/s", "GET /v1/users/{u}/unread under concurrent load"),
            new Figure("counts_api_p99_ms", "ms", "its p99 latency"),
            new Figure("counts_raw_rps", "requests/s", "raw HGETALL, same Redis, same load, interleaved"),
            new Figure("counts_api_raw_ratio", "ratio", "counts API / raw HGETALL within each repetition"),
            new Figure("author_page_rps", "requests/s", "GET /v1/users/{u}/unread/{authorId}?limit=20, same load"),
            new Figure("author_page_p99_ms", "ms", "its p99 latency"),
            new Figure("items_rps", "requests/s", "GET /v1/users/{u}/unread/items?limit=20, same load"),
            new Figure("items_p99_ms", "ms", "its p99 latency"),
            new Figure("push_rps", "pushes/s", "a user's counts changed by a script, until its stream pushed them, same load"),
            new Figure("push_p99_ms", "ms", "its p99 latency, change to push"),
            new Figure("server_netty_rps", "requests/s", "counts read on Netty (JsonHttpServer, async route)"),
            new Figure("server_netty_p99_ms", "ms", "its p99 latency"),
            new Figure("server_jdk_rps", "requests/s", "counts read on the JDK HttpServer (virtual threads)"),
            new Figure("server_jdk_p99_ms", "ms", "its p99 latency"),
            new Figure("server_jetty_rps", "requests/s", "counts read on Jetty 12 core (async)"),
            new Figure("server_jetty_p99_ms", "ms", "its p99 latency"),
            new Figure("counts_api_notices_rps", "requests/s", "the counts route for users with 20 live notices (15 unread), same load"),
            new Figure("counts_api_notices_p99_ms", "ms", "its p99 latency"),
            new Figure("counts_notices_ratio", "ratio", "counts with notices / counts without, within each repetition"),
            new Figure("counts_conditional_rps", "requests/s", "the counts route polled with If-None-Match: 304s, same load"),
            new Figure("counts_conditional_ratio", "ratio", "polling with If-None-Match / full counts reads, within each repetition"),
            new Figure("seed000_counts_rps", "requests/s", "seed 000: KEYS notice:* + GETBIT over the notices"),
            new Figure("notice_publish_ms", "ms", "a broadcast to a 10,000,000-member audience, p99 of one publish"),
            new Figure("notice_publish_redis_bytes", "bytes", "bytes Redis read and wrote for one such publish"),
            new Figure("bytes_per_unread_entry", "bytes", "Redis used_memory delta / unread entries"),
            new Figure("bytes_per_unread_entry_heavy", "bytes", "the same, 500 users x 50 authors x 0-20 unread"));

    private final Map<String, Object> run = new LinkedHashMap<>();
    private final Map<String, Double> figures = new LinkedHashMap<>();
    private final Map<String, Object> details = new LinkedHashMap<>();
    private final Map<String, Spread> spreads = new LinkedHashMap<>();
    private final Instant startedAt;

    public BenchReport(Instant startedAt) {
        this.startedAt = startedAt;
        run.put("date", startedAt.toString());
    }

    public void run(String name, Object value) {
        run.put(name, value);
    }

    public void figure(String name, double value) {
        if (FIGURES.stream().noneMatch(f -> f.name().equals(name))) throw new IllegalArgumentException("unknown figure " + name);
        figures.put(name, value);
    }

    /** A figure measured in repetitions: the median is the figure; the range is printed beside it and kept in the JSON. */
    void figure(String name, Spread spread) {
        figure(name, spread.median());
        spreads.put(name, spread);
    }

    public void detail(String name, Object value) {
        details.put(name, value);
    }

    public Map<String, Double> figures() {
        return Map.copyOf(figures);
    }

    public double figure(String name) {
        Double value = figures.get(name);
        if (value == null) throw new IllegalStateException("figure " + name + " was not measured");
        return value;
    }

    /** The targets, evaluated on this run's figures with their spreads; every ratio is taken within each repetition. */
    public List<Target> targets() {
        return List.of(
                target("pipeline >= 0.6 x ceiling", "pipeline_ceiling_ratio", 0.6, true),
                target("pipeline >= 20 x naive", "pipeline_naive_ratio", 20, true),
                target("normal p99 during big-V <= 2 x idle p99", "bigv_isolation_ratio", 2, false),
                target("big-V >= 100,000 deliveries/s (1M in 10 s)", "bigv_fanout_deliveries_per_s", 100_000, true),
                target("counts API >= 0.5 x raw HGETALL", "counts_api_raw_ratio", 0.5, true),
                target("counts API p99 <= 2 ms", "counts_api_p99_ms", 2, false),
                target("counts with notices >= 0.8 x without", "counts_notices_ratio", 0.8, true),
                target("notice publish p99 < 5 ms", "notice_publish_ms", 5, false),
                target("notice publish < 4 KB of Redis traffic", "notice_publish_redis_bytes", 4096, false),
                target("bytes per unread entry <= 40", "bytes_per_unread_entry", 40, false),
                target("bytes per unread entry, heavy spread <= 32", "bytes_per_unread_entry_heavy", 32, false));
    }

    private Target target(String rule, String name, double threshold, boolean atLeast) {
        Spread spread = spreadOf(name);
        return new Target(rule, spread.median(), spread.min(), spread.max(), spread.runs().size(), threshold, atLeast);
    }

    /** The figure's spread, or the figure alone as a spread of one. */
    Spread spreadOf(String name) {
        Spread spread = spreads.get(name);
        return spread != null ? spread : Spread.of(List.of(figure(name)));
    }

    /** Throws unless every figure of {@link #FIGURES} is present, finite and positive. */
    public void requireComplete() {
        for (Figure figure : FIGURES) {
            Double value = figures.get(figure.name());
            if (value == null || !Double.isFinite(value) || value <= 0) {
                throw new IllegalStateException("figure " + figure.name() + " is " + value + "; every figure must be measured and positive");
            }
        }
    }

    public String table() {
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%nReadmark bench — %s run, %s%n%n", run.getOrDefault("mode", "?"), run.get("date")));
        table.append(String.format(Locale.ROOT, "%-28s %14s  %-15s  %-13s %s%n", "figure", "value", "range", "unit", "what"));
        for (Figure figure : FIGURES) {
            Double value = figures.get(figure.name());
            Spread spread = spreads.get(figure.name());
            table.append(String.format(Locale.ROOT, "%-28s %14s  %-15s  %-13s %s%n", figure.name(), value == null ? "-" : format(value),
                    spread == null ? "" : spread.range(), figure.unit(), figure.description()));
        }
        table.append(String.format(Locale.ROOT, "%n%-12s %-42s %10s  %-17s %4s %10s%n", "verdict", "rule", "measured", "range", "reps", "needed"));
        for (Target target : targets()) {
            String range = target.high() > target.low() ? format(target.low()) + "–" + format(target.high()) : "";
            table.append(String.format(Locale.ROOT, "%-12s %-42s %10s  %-17s %4d %10s%n", target.verdict().label(), target.rule(),
                    format(target.value()), range, target.repetitions(), (target.atLeast() ? ">= " : "<= ") + format(target.threshold())));
        }
        return table.toString();
    }

    public ObjectNode toJson() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.set("run", Json.MAPPER.valueToTree(run));
        ObjectNode figureNode = root.putObject("figures");
        figures.forEach(figureNode::put);
        List<Map<String, Object>> targetList = new ArrayList<>();
        for (Target target : targets()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("rule", target.rule());
            entry.put("value", target.value());
            entry.put("min", target.low());
            entry.put("max", target.high());
            entry.put("repetitions", target.repetitions());
            entry.put("threshold", target.threshold());
            entry.put("verdict", target.verdict().name().toLowerCase(Locale.ROOT));
            targetList.add(entry);
        }
        root.set("targets", Json.MAPPER.valueToTree(targetList));
        // Medians over interleaved repetitions: the figure above is the median, here with its range and every run.
        ObjectNode spreadNode = root.putObject("spreads");
        spreads.forEach((name, spread) -> spreadNode.set(name, Json.MAPPER.valueToTree(spread.toMap())));
        root.set("details", Json.MAPPER.valueToTree(details));
        return root;
    }

    /** Writes latest.json, latest.png and timestamped copies of both; returns the files written. */
    public List<Path> write(Path directory) throws IOException {
        requireComplete();
        Files.createDirectories(directory);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(startedAt);
        ObjectMapper pretty = Json.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT);
        byte[] json = pretty.writeValueAsBytes(toJson());
        byte[] png = BenchChart.render(this);
        List<Path> written = new ArrayList<>();
        for (String name : List.of("latest", "bench-" + run.getOrDefault("mode", "run") + "-" + stamp)) {
            written.add(Files.write(directory.resolve(name + ".json"), json));
            written.add(Files.write(directory.resolve(name + ".png"), png));
        }
        return written;
    }

    Object runValue(String name) {
        return run.get(name);
    }

    static String format(double value) {
        if (Math.abs(value) >= 1000) return String.format(Locale.ROOT, "%,.0f", value);
        if (Math.abs(value) >= 10) return String.format(Locale.ROOT, "%.1f", value);
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
