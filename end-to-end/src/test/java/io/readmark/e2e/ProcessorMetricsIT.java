package io.readmark.e2e;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import static io.readmark.infra.PrometheusText.samples;
import static io.readmark.infra.PrometheusText.sum;
import static io.readmark.infra.PrometheusText.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the stream processor reports at {@code /metrics} and {@code /health/*} after real traffic through the pipeline. */
class ProcessorMetricsIT {

    @AutoClose
    private static PipelineFixture pipeline;

    @BeforeAll
    static void start() throws Exception {
        pipeline = PipelineFixture.start("metrics");
    }

    @Test
    void shouldReportDeliveriesDeadLettersKafkaStreamsAndRedisLatency() throws Exception {
        // Given three followers, a post of their author and a record that is not JSON
        long author = pipeline.newId();
        long[] followers = {pipeline.newId(), pipeline.newId(), pipeline.newId()};
        long blog = pipeline.newId();
        for (long follower : followers) pipeline.produce(pipeline.followed(follower, author));
        pipeline.produce(pipeline.published(blog, author, Instant.parse("2026-01-01T12:00:00Z")), pipeline.notJson(author));
        for (long follower : followers) pipeline.awaitUnread(follower, author, blog);

        // When scraped (deliveries are counted once Redis acknowledged them, before the next commit)
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            String scrape = scrape();

            // Then
            assertThat(sum(scrape, "readmark_deliveries_total", "role=\"main\"")).isGreaterThanOrEqualTo(3);
            assertThat(sum(scrape, "readmark_dlq_records_total", "reason=\"malformed\"", "topic=\"blog-events-")).isGreaterThanOrEqualTo(1);
            assertThat(samples(scrape, "readmark_dlq_records_total", "reason=\"field\"", "topic=\"notice-events-"))
                    .as("present, at 0, before a bad record: the first one then shows as an increase").hasSize(1)
                    .allMatch(line -> value(line) == 0);
            assertThat(samples(scrape, "readmark_fanout_pending_followers")).isNotEmpty();
            assertThat(samples(scrape, "readmark_redis_write_retries_total", "role=\"main\"")).as("present, at 0, before any outage")
                    .isNotEmpty().allMatch(line -> value(line) == 0);
            assertThat(scrape.lines()).anyMatch(line -> line.startsWith("kafka_stream_"));
            assertThat(samples(scrape, "kafka_consumer_fetch_manager_records_lag_max", "-fanout-"))
                    .as("the fan-out worker's consumer lag").isNotEmpty();
            // The three deliveries went out as one script: Redis latency is recorded per command.
            assertThat(sum(scrape, "lettuce_command_completion_seconds_count", "command=\"EVALSHA\"")).isGreaterThanOrEqualTo(1);
            assertThat(samples(scrape, "jvm_memory_used_bytes")).isNotEmpty();
            assertThat(scrape.lines().filter(line -> !line.startsWith("#")))
                    .allMatch(line -> line.contains("application=\"stream-processor\""));
        });
    }

    @Test
    void shouldBeLiveAndReadyWhileRunning() throws Exception {
        HttpResponse<String> live = pipeline.processor("/health/live");
        HttpResponse<String> ready = pipeline.processor("/health/ready");

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    private static String scrape() throws Exception {
        HttpResponse<String> response = pipeline.processor("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        return response.body();
    }
}
