package io.readmark.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static io.readmark.bench.BenchReport.Verdict.INCONCLUSIVE;
import static io.readmark.bench.BenchReport.Verdict.MET;
import static io.readmark.bench.BenchReport.Verdict.NOT_MET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchReportTest {

    private static BenchReport complete() {
        BenchReport report = new BenchReport(Instant.parse("2026-01-02T03:04:05Z"));
        report.run("mode", "quick");
        report.run("cores", 2);
        report.figure("ceiling_deliveries_per_s", 100_000);
        report.figure("naive_deliveries_per_s", 2_000);
        report.figure("pipeline_deliveries_per_s", new Spread(50_000, 40_000, 70_000, List.of(50_000.0, 40_000.0, 70_000.0)));
        // Not the ratio of the medians (50,000 / 100,000): a ratio target reads the ratio figure.
        report.figure("pipeline_ceiling_ratio", new Spread(0.55, 0.4, 0.7, List.of(0.55, 0.4, 0.7)));
        report.figure("pipeline_naive_ratio", new Spread(25, 20, 35, List.of(25.0, 20.0, 35.0)));
        report.figure("normal_p50_idle_ms", 3);
        report.figure("normal_p99_idle_ms", 10);
        report.figure("normal_p99_during_bigv_ms", 2_500);
        report.figure("bigv_isolation_ratio", 250);
        report.figure("bigv_fanout_s", 20);
        report.figure("bigv_fanout_deliveries_per_s", 50_000);
        report.figure("counts_api_rps", new Spread(20_000, 18_000, 21_000, List.of(20_000.0, 18_000.0, 21_000.0)));
        report.figure("counts_api_p99_ms", 2);
        report.figure("counts_raw_rps", 30_000);
        report.figure("counts_api_raw_ratio", new Spread(0.6, 0.45, 0.62, List.of(0.6, 0.45, 0.62)));
        report.figure("author_page_rps", 9_000);
        report.figure("author_page_p99_ms", 2.5);
        report.figure("items_rps", 4_000);
        report.figure("items_p99_ms", 5);
        report.figure("push_rps", 3_000);
        report.figure("push_p99_ms", 4);
        report.figure("server_netty_rps", 21_000);
        report.figure("server_netty_p99_ms", 1.5);
        report.figure("server_jdk_rps", 12_000);
        report.figure("server_jdk_p99_ms", 3);
        report.figure("server_jetty_rps", 18_000);
        report.figure("server_jetty_p99_ms", 2);
        report.figure("counts_api_notices_rps", 17_000);
        report.figure("counts_api_notices_p99_ms", 2.2);
        report.figure("counts_notices_ratio", new Spread(0.85, 0.81, 0.9, List.of(0.85, 0.81, 0.9)));
        report.figure("counts_conditional_rps", 24_000);
        report.figure("counts_conditional_ratio", new Spread(1.2, 1.1, 1.3, List.of(1.2, 1.1, 1.3)));
        report.figure("seed000_counts_rps", 40);
        report.figure("notice_publish_ms", 0.4);
        report.figure("notice_publish_redis_bytes", 300);
        report.figure("bytes_per_unread_entry", 55);
        report.figure("bytes_per_unread_entry_heavy", 30);
        report.detail("graph_edges", 400_000);
        return report;
    }

    @Test
    void shouldEvaluateEveryTargetOnTheFigures() {
        List<BenchReport.Target> targets = complete().targets();

        assertThat(targets).extracting(BenchReport.Target::rule).containsExactly("pipeline >= 0.6 x ceiling",
                "pipeline >= 20 x naive", "normal p99 during big-V <= 2 x idle p99", "big-V >= 100,000 deliveries/s (1M in 10 s)",
                "counts API >= 0.5 x raw HGETALL",
                "counts API p99 <= 2 ms", "counts with notices >= 0.8 x without", "notice publish p99 < 5 ms",
                "notice publish < 4 KB of Redis traffic", "bytes per unread entry <= 40",
                "bytes per unread entry, heavy spread <= 32");
        // Ratio targets read the ratio figure (a median of per-repetition ratios), not the ratio of two medians.
        assertThat(targets).extracting(BenchReport.Target::value).containsExactly(0.55, 25.0, 250.0, 50_000.0, 0.6, 2.0, 0.85,
                0.4, 300.0, 55.0, 30.0);
        assertThat(targets).extracting(BenchReport.Target::verdict).containsExactly(INCONCLUSIVE, MET, NOT_MET, NOT_MET,
                INCONCLUSIVE, MET, MET, MET, MET, NOT_MET, MET);
    }

    @Test
    void shouldDecideOnlyWhenTheWholeSpreadIsOnOneSide() {
        assertThat(new BenchReport.Target("r", 0.6, 0.5, 0.7, 3, 0.5, true).verdict()).as("the low end on the line").isEqualTo(MET);
        assertThat(new BenchReport.Target("r", 0.6, 0.49, 0.7, 3, 0.5, true).verdict()).isEqualTo(INCONCLUSIVE);
        assertThat(new BenchReport.Target("r", 0.4, 0.3, 0.49, 3, 0.5, true).verdict()).isEqualTo(NOT_MET);
        assertThat(new BenchReport.Target("r", 1.5, 1, 2, 3, 2, false).verdict()).isEqualTo(MET);
        assertThat(new BenchReport.Target("r", 1.5, 1, 2.1, 3, 2, false).verdict()).isEqualTo(INCONCLUSIVE);
        assertThat(new BenchReport.Target("r", 3, 3, 3, 1, 2, false).verdict()).as("measured once").isEqualTo(NOT_MET);
    }

    @Test
    void shouldWriteEveryFigureTargetAndDetailAsJsonWithATimestampedCopyAndAChart(@TempDir Path dir) throws Exception {
        List<Path> written = complete().write(dir);

        assertThat(written).extracting(p -> p.getFileName().toString()).containsExactly(
                "latest.json", "latest.png", "bench-quick-20260102-030405.json", "bench-quick-20260102-030405.png");
        JsonNode json = Json.MAPPER.readTree(dir.resolve("latest.json").toFile());
        for (BenchReport.Figure figure : BenchReport.FIGURES) {
            assertThat(json.get("figures").get(figure.name()).isNumber()).as(figure.name()).isTrue();
        }
        assertThat(json.get("figures").get("pipeline_deliveries_per_s").asDouble()).isEqualTo(50_000);
        assertThat(json.get("targets")).hasSize(11);
        assertThat(json.get("spreads").get("counts_api_rps").get("min").asDouble()).isEqualTo(18_000);
        assertThat(json.get("spreads").get("counts_api_rps").get("runs")).hasSize(3);
        assertThat(json.get("spreads").has("counts_raw_rps")).isFalse();
        assertThat(json.get("targets").get(1).get("verdict").asText()).isEqualTo("met");
        assertThat(json.get("targets").get(4).get("verdict").asText()).isEqualTo("inconclusive");
        assertThat(json.get("targets").get(4).get("min").asDouble()).isEqualTo(0.45);
        assertThat(json.get("run").get("mode").asText()).isEqualTo("quick");
        assertThat(json.get("details").get("graph_edges").asLong()).isEqualTo(400_000);
        assertThat(Files.readAllBytes(dir.resolve("bench-quick-20260102-030405.json")))
                .isEqualTo(Files.readAllBytes(dir.resolve("latest.json")));
        BufferedImage chart = ImageIO.read(dir.resolve("latest.png").toFile());
        assertThat(chart.getWidth()).isGreaterThan(800);
    }

    @Test
    void shouldRefuseToWriteAReportWithAMissingOrNonPositiveFigure(@TempDir Path dir) {
        BenchReport missing = new BenchReport(Instant.now());
        missing.figure("ceiling_deliveries_per_s", 1);
        assertThatThrownBy(() -> missing.write(dir)).hasMessageContaining("naive_deliveries_per_s");

        BenchReport zero = complete();
        zero.figure("counts_api_rps", 0);
        assertThatThrownBy(() -> zero.write(dir)).hasMessageContaining("counts_api_rps");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void shouldPrintATableWithEveryFigureAndTheVerdictOfEachTarget() {
        String table = complete().table();

        for (BenchReport.Figure figure : BenchReport.FIGURES) assertThat(table).contains(figure.name());
        assertThat(table).contains("100,000").contains("inconclusive pipeline >= 0.6 x ceiling").contains("met          pipeline >= 20 x naive")
                .contains("NOT MET      normal p99 during big-V");
        assertThat(table).containsPattern("counts API >= 0.5 x raw HGETALL +0.60 +0.45–0.62 +3 +>= 0.50");
        assertThat(table).containsPattern("counts_api_rps +20,000  18,000–21,000 ");
    }

    @Test
    void shouldRejectAFigureItDoesNotKnow() {
        assertThatThrownBy(() -> complete().figure("made_up", 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
