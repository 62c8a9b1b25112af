package io.readmark.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alert rules and the dashboard in {@code deploy/}: Prometheus's own tool accepts the rules and their tests (each
 * alert fires on its fault and resolves after it), and every metric they query is one the running processor or view
 * API really exposes, so a renamed metric cannot leave an alert that never fires.
 */
class MonitoringRulesIT {

    private static final Path DEPLOY = Path.of("..", "deploy");
    private static final Path RULES = DEPLOY.resolve("prometheus/readmark-alerts.yml");
    private static final Path RULE_TESTS = DEPLOY.resolve("prometheus/readmark-alerts.test.yml");
    private static final Path DASHBOARD = DEPLOY.resolve("grafana/readmark-dashboard.json");
    /** Metric names in PromQL: ours and those of the libraries the deployables expose. */
    private static final Pattern METRIC = Pattern.compile("\\b(?:readmark|kafka|http_server|lettuce|jvm)_[a-z0-9_]+\\b");

    @AutoClose
    private static PipelineFixture pipeline;

    @BeforeAll
    static void start() throws Exception {
        pipeline = PipelineFixture.start("monitoring");
    }

    @Test
    void shouldPassPromtoolsRuleCheckAndEveryRuleTest() throws Exception {
        assertThat(promtool("check", "rules", RULES.toString())).contains("SUCCESS: 11 rules found");
        assertThat(promtool("test", "rules", RULE_TESTS.toString())).contains("SUCCESS");
    }

    @Test
    void shouldQueryOnlyMetricsTheDeployablesExpose() throws Exception {
        Set<String> queried = new TreeSet<>();
        for (String line : Files.readAllLines(RULES)) {
            if (line.trim().startsWith("expr:")) queried.addAll(metricNames(line));
        }
        JsonNode dashboard = Json.MAPPER.readTree(DASHBOARD.toFile());
        assertThat(dashboard.get("panels")).isNotEmpty();
        for (JsonNode expr : dashboard.findValues("expr")) queried.addAll(metricNames(expr.asText()));
        assertThat(queried).contains("readmark_redis_write_retries_total", "readmark_streams_dropped_total",
                "kafka_consumer_fetch_manager_records_lag_max");

        long author = pipeline.newId();
        long follower = pipeline.newId();
        long blog = pipeline.newId();
        pipeline.produce(pipeline.followed(follower, author));
        // A post (a script the processor runs, a request to the view API) and a record for the dead-letter topic.
        pipeline.produce(pipeline.published(blog, author, Instant.parse("2026-01-01T12:00:00Z")), pipeline.notJson(author));
        pipeline.awaitUnread(follower, author, blog);
        PipelineFixture.eventually(() -> {
            String exposed = pipeline.processor("/metrics").body() + pipeline.viewManagement("/metrics").body();
            assertThat(queried).allSatisfy(name -> assertThat(exposed).as("a scrape has " + name).containsPattern("(?m)^" + name + "[{ ]"));
        });
    }

    private static Set<String> metricNames(String promql) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = METRIC.matcher(promql);
        while (matcher.find()) names.add(matcher.group());
        return names;
    }

    /** Runs Debian's {@code promtool} (package {@code prometheus}, which {@code .ci/run} installs); its output. */
    private static String promtool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(arguments));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("promtool is not installed (apt-get install prometheus); the rules cannot be checked", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
