package io.readmark.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.config.Settings;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replica study at a tiny size, end to end: embedded Kafka, a Redis master and its replica, the processor started
 * anew for every run. Both settings are measured, only the one with the wait sends WAITs, and the report has every
 * figure with its ratio.
 */
class ReplicaWaitStudyIT {

    @TempDir
    private Path output;

    @Test
    void shouldMeasureThePipelineWithoutAndWithTheWaitAndReportTheCost() throws Exception {
        Settings tiny = Settings.of(Map.of("BENCH_USERS", "600", "BENCH_AUTHORS", "60", "BENCH_FOLLOWS_PER_USER", "10",
                "BENCH_PROBE_AUTHORS", "4", "BENCH_IDLE_DURATION", "600", "BENCH_REPLICAS_REPETITIONS", "1",
                "PROCESSOR_COMMIT_INTERVAL", "200", "BENCH_OUTPUT_DIR", output.toString()), Map.of());

        ReplicaWaitStudy.run(tiny, new PrintStream(OutputStream.nullOutputStream()), System.err);

        JsonNode figures = Json.MAPPER.readTree(output.resolve("replicas-latest.json").toFile()).get("figures");
        for (String compared : new String[]{"deliveries_per_s", "normal_p50_idle_ms", "normal_p99_idle_ms"}) {
            JsonNode figure = figures.get(compared);
            assertThat(figure.get("wait_0").get("median").asDouble()).as(compared).isPositive();
            assertThat(figure.get("wait_1").get("median").asDouble()).as(compared).isPositive();
            assertThat(figure.get("ratio").get("runs")).as(compared).hasSize(1);
            assertThat(figure.get("ratio").get("median").asDouble()).as(compared).isPositive().isFinite();
            assertThat(figure.has("difference")).as(compared).isTrue();
        }
        // Probe posts commit every 200 ms in the idle window: with the wait, each commit waits for the replica.
        assertThat(figures.get("idle_waits_per_s").get("wait_0").get("max").asDouble()).isZero();
        assertThat(figures.get("idle_waits_per_s").get("wait_1").get("median").asDouble()).isPositive();
        assertThat(figures.get("pipeline_replica_cores").get("wait_1").get("median").asDouble()).isPositive();
        assertThat(output.resolve("replicas-latest.txt")).content().contains("WAIT 1 / WAIT 0").contains("deliveries/s");
    }
}
