package io.readmark.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.config.Settings;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole harness at a tiny size — every phase on real embedded Kafka and Redis, in seconds — so it cannot rot:
 * every figure must come out measured and positive, and the report must be written.
 */
class BenchSmokeIT {

    @Test
    void shouldMeasureEveryFigureAndWriteTheReport() throws Exception {
        Path output = Path.of("target", "bench-smoke");
        Settings tiny = Settings.of(Map.ofEntries(
                Map.entry("BENCH_USERS", "600"), Map.entry("BENCH_AUTHORS", "60"), Map.entry("BENCH_FOLLOWS_PER_USER", "10"),
                Map.entry("BENCH_NAIVE_DURATION", "300"), Map.entry("BENCH_PROBE_AUTHORS", "4"),
                Map.entry("BENCH_IDLE_DURATION", "600"), Map.entry("BENCH_BIGV_FOLLOWERS", "3000"),
                Map.entry("BENCH_BIGV_POSTS", "1"), Map.entry("BENCH_READ_WARMUP", "100"),
                Map.entry("BENCH_READ_DURATION", "300"), Map.entry("BENCH_READ_CONCURRENCY", "2"),
                Map.entry("BENCH_READ_REPETITIONS", "2"), Map.entry("BENCH_WRITE_REPETITIONS", "2"),
                Map.entry("BENCH_LATENCY_ROUNDS", "3"),
                Map.entry("BENCH_NOTICES", "50"), Map.entry("BENCH_NOTICE_AUDIENCE", "2000"), Map.entry("BENCH_MEMORY_USERS", "300"),
                Map.entry("PROCESSOR_COMMIT_INTERVAL", "200"), Map.entry("BENCH_OUTPUT_DIR", output.toString())), Map.of());
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        BenchReport report = Bench.run(tiny, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);

        for (BenchReport.Figure figure : BenchReport.FIGURES) {
            assertThat(report.figures()).as(figure.name()).containsKey(figure.name());
            assertThat(report.figure(figure.name())).as(figure.name()).isPositive().isFinite();
        }
        assertThat(report.targets()).hasSize(11);
        JsonNode json = Json.MAPPER.readTree(output.resolve("latest.json").toFile());
        assertThat(json.get("figures").size()).isEqualTo(BenchReport.FIGURES.size());
        assertThat(json.get("details").get("pipeline_deliveries").asLong()).isEqualTo(json.get("details").get("workload_deliveries").asLong());
        assertThat(json.get("spreads").get("counts_api_rps").get("runs")).hasSize(2);
        assertThat(json.get("spreads").get("pipeline_ceiling_ratio").get("runs")).hasSize(2);
        assertThat(json.get("spreads").get("pipeline_naive_ratio").get("runs")).hasSize(2);
        assertThat(json.get("spreads").get("bigv_isolation_ratio").get("runs")).hasSize(3); // BENCH_LATENCY_ROUNDS
        assertThat(json.get("details").get("ceiling_deliveries").asLong()).isEqualTo(json.get("details").get("workload_deliveries").asLong());
        assertThat(json.get("spreads").get("server_jetty_rps").get("runs")).hasSize(2);
        JsonNode details = json.get("details");
        assertThat(details.get("bigv_delete_removals_per_s").get("runs")).hasSize(3);
        assertThat(details.get("normal_idle_redis_slow_commands_per_s").get("runs")).hasSize(3);
        assertThat(details.get("bigv_redis_slow_commands_per_s").get("runs")).hasSize(3);
        assertThat(details.get("bigv_delete_redis_us_per_removal").get("min").asDouble()).isPositive();
        assertThat(details.get("read_warmup_rounds").asInt()).isBetween(1, InterleavedLoad.MAX_WARMUP_ROUNDS);
        assertThat(details.get("server_warmup_rounds").asInt()).isBetween(1, InterleavedLoad.MAX_WARMUP_ROUNDS);
        assertThat(details.get("counts_api_jit_share").get("runs")).hasSize(2);
        assertThat(details.get("write_repetitions_run_again").asInt()).isBetween(0, 2);
        assertThat(details.get("write_repetitions_disturbed_kept").asInt()).isBetween(0, 2);
        assertThat(details.get("pipeline_runs").asInt()).isBetween(2, 4);
        // Heavy users hold up to 1,000 entries: at the deployed thresholds their z and h stay listpacks.
        assertThat(details.get("memory_heavy_z_skiplist_share").asDouble()).isZero();
        assertThat(details.get("memory_heavy_h_hashtable_share").asDouble()).isZero();
        assertThat(Files.size(output.resolve("latest.png"))).isPositive();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("pipeline_deliveries_per_s").contains("target");
    }
}
