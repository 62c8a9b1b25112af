package io.readmark.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What waiting for a replica costs, from {@code ./readmark bench --replicas}: per repetition a run without the wait
 * and one with it, each figure as the median with the range over the repetitions ({@link Spread}), and the cost as
 * the ratio and the difference taken within each repetition. Written to {@code replicas-latest.txt} and {@code .json}.
 */
final class ReplicaWaitReport {

    /** A row of the table: what every run measured, and whether the two settings are compared on it. */
    private record Row(String label, String name, ToDoubleFunction<ReplicaWaitRuns.Result> value, boolean compared) {
    }

    private static final List<Row> ROWS = List.of(
            new Row("pipeline, deliveries/s", "deliveries_per_s", ReplicaWaitRuns.Result::deliveriesPerSecond, true),
            new Row("normal post, idle p50 ms", "normal_p50_idle_ms", ReplicaWaitRuns.Result::p50Millis, true),
            new Row("normal post, idle p99 ms", "normal_p99_idle_ms", ReplicaWaitRuns.Result::p99Millis, true),
            new Row("WAIT calls/s, pipeline", "pipeline_waits_per_s", run -> run.pipelineReplication().waitsPerSecond(), false),
            new Row("WAIT calls/s, idle", "idle_waits_per_s", run -> run.idleReplication().waitsPerSecond(), false),
            new Row("replica lag max, bytes", "pipeline_replica_lag_max_bytes", run -> run.pipelineReplication().maxLagBytes(), false),
            new Row("replica lag mean, bytes", "pipeline_replica_lag_mean_bytes", run -> run.pipelineReplication().meanLagBytes(), false),
            new Row("Redis master, cores", "pipeline_redis_cores", run -> run.pipeline().cpu().redisCores(), false),
            new Row("Redis replica, cores", "pipeline_replica_cores", run -> run.pipelineReplication().replicaCores(), false),
            new Row("bench JVM, cores", "pipeline_java_cores", run -> run.pipeline().cpu().javaCores(), false));
    /** A cell and a space, so that a wide range never runs into the next cell. */
    private static final String LABEL = "%-26s", COLUMN = "%-25s ";

    private final Instant startedAt;
    private final Map<String, Object> run = new LinkedHashMap<>();
    /** Per repetition kept, in order: the run without the wait and the run with it. */
    private final List<ReplicaWaitRuns.Result> without = new ArrayList<>(), with = new ArrayList<>();

    ReplicaWaitReport(Instant startedAt) {
        this.startedAt = startedAt;
        run.put("date", startedAt.toString());
    }

    /** A fact of the run (setting, version, count), kept as given. */
    void run(String name, Object value) {
        run.put(name, value);
    }

    void add(ReplicaWaitRuns.Result withoutWait, ReplicaWaitRuns.Result withWait) {
        without.add(withoutWait);
        with.add(withWait);
    }

    /** WAIT 1 over WAIT 0, within each repetition. */
    Spread ratio(String name) {
        ToDoubleFunction<ReplicaWaitRuns.Result> value = row(name).value();
        return Spread.ofRatios(values(with, value), values(without, value));
    }

    /** WAIT 1 less WAIT 0, within each repetition. */
    Spread difference(String name) {
        ToDoubleFunction<ReplicaWaitRuns.Result> value = row(name).value();
        List<Double> differences = new ArrayList<>();
        for (int i = 0; i < with.size(); i++) differences.add(value.applyAsDouble(with.get(i)) - value.applyAsDouble(without.get(i)));
        return Spread.of(differences);
    }

    private static Row row(String name) {
        return ROWS.stream().filter(row -> row.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no figure " + name));
    }

    private static List<Double> values(List<ReplicaWaitRuns.Result> runs, ToDoubleFunction<ReplicaWaitRuns.Result> value) {
        return runs.stream().map(result -> value.applyAsDouble(result)).toList();
    }

    String table() {
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%nreadmark bench --replicas — %s, Redis %s and one replica, %s cores, %d repetitions, %s s%n",
                startedAt, run.get("redis_version"), run.get("cores"), with.size(), run.get("duration_s")));
        table.append("  READMARK_REDIS_WAIT_REPLICAS 0 and 1 take turns (0, 1, then 1, 0, …), the processor restarted before each\n"
                + "  run; median (min–max) over the repetitions; ratio and difference taken within each repetition\n\n");
        table.append(String.format(Locale.ROOT, LABEL + COLUMN + COLUMN + COLUMN + "%s%n", "figure", "WAIT 0", "WAIT 1",
                "WAIT 1 / WAIT 0", "WAIT 1 − WAIT 0"));
        for (Row row : ROWS) {
            table.append(String.format(Locale.ROOT, LABEL + COLUMN + COLUMN, row.label(), Spread.of(values(without, row.value())),
                    Spread.of(values(with, row.value()))));
            if (row.compared()) {
                table.append(String.format(Locale.ROOT, COLUMN + "%s", ratio(row.name()), difference(row.name())));
            }
            table.append('\n');
        }
        table.append("  lag, CPU: during the pipeline runs; replica lag sampled every 10 ms\n");
        return table.toString();
    }

    Map<String, Object> toMap() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run);
        Map<String, Object> figures = new LinkedHashMap<>();
        for (Row row : ROWS) {
            Map<String, Object> figure = new LinkedHashMap<>();
            figure.put("wait_0", Spread.of(values(without, row.value())).toMap());
            figure.put("wait_1", Spread.of(values(with, row.value())).toMap());
            if (row.compared()) {
                figure.put("ratio", ratio(row.name()).toMap());
                figure.put("difference", difference(row.name()).toMap());
            }
            figures.put(row.name(), figure);
        }
        root.put("figures", figures);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int i = 0; i < with.size(); i++) {
            runs.add(runDetails(i + 1, without.get(i)));
            runs.add(runDetails(i + 1, with.get(i)));
        }
        root.put("runs", runs);
        return root;
    }

    private static Map<String, Object> runDetails(int repetition, ReplicaWaitRuns.Result result) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("repetition", repetition);
        details.put("wait_replicas", result.waitReplicas());
        details.put("deliveries", result.pipeline().deliveries());
        details.put("pipeline_s", result.pipeline().seconds());
        details.put("probes", result.idle().all().getTotalCount());
        details.put("pipeline_wait_calls", result.pipelineReplication().waitCalls());
        details.put("pipeline_wait_redis_us", result.pipelineReplication().waitMicros());
        details.put("idle_wait_calls", result.idleReplication().waitCalls());
        details.put("pipeline_other_cores", result.pipeline().cpu().otherCores());
        details.put("idle_other_cores", result.idleCpu().otherCores());
        details.put("idle_replica_cores", result.idleReplication().replicaCores());
        for (Row row : ROWS) details.put(row.name(), row.value().applyAsDouble(result));
        return details;
    }

    /** replicas-latest.txt and .json, and copies stamped with the start time; returns the files written. */
    List<Path> write(Path directory) throws IOException {
        return ReportFiles.write(directory, "replicas", startedAt, table(), toMap());
    }
}
