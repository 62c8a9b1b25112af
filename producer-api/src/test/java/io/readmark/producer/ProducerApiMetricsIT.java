package io.readmark.producer;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static io.readmark.infra.PrometheusText.samples;
import static io.readmark.infra.PrometheusText.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the producer API reports at {@code /metrics} after real requests against a real broker. */
class ProducerApiMetricsIT {

    @AutoClose
    private static final ProducerApiFixture producer = ProducerApiFixture.start(ProducerApiMetricsIT.class);
    private static final HttpCalls http = producer.http;

    @Test
    void shouldReportRequestLatencyByRouteAndStatusProducerSendsAndTheJvm() {
        // Given an accepted event, a bad one and a path nobody serves
        assertThat(http.postJson("/v1/events", """
                {"type":"BlogPublished","eventId":"metrics-1","blogId":1,"authorId":7,"publishedAt":"2026-03-01T12:00:00Z"}""")
                .statusCode()).isEqualTo(202);
        assertThat(http.postJson("/v1/events", "{\"type\":\"BlogPublished\"}").statusCode()).isEqualTo(400);
        assertThat(http.get("/v1/events/1").statusCode()).isEqualTo(404);

        // When scraped (a request is timed once its answer is written, which the client may see first)
        await().untilAsserted(() -> {
            String scrape = scrape();

            // Then
            assertThat(sum(scrape, "http_server_requests_seconds_count", "method=\"POST\"", "route=\"/v1/events\"", "status=\"202\""))
                    .isGreaterThanOrEqualTo(1);
            assertThat(sum(scrape, "http_server_requests_seconds_count", "route=\"/v1/events\"", "status=\"400\""))
                    .isGreaterThanOrEqualTo(1);
            assertThat(sum(scrape, "http_server_requests_seconds_count", "route=\"UNKNOWN\"", "status=\"404\""))
                    .isGreaterThanOrEqualTo(1);
            assertThat(samples(scrape, "http_server_requests_seconds_bucket", "route=\"/v1/events\"", "le=")).isNotEmpty();
            assertThat(sum(scrape, "kafka_producer_record_send_total", "client_id=\"readmark-producer-api\"")).isGreaterThanOrEqualTo(1);
            assertThat(samples(scrape, "jvm_memory_used_bytes")).isNotEmpty();
            assertThat(samples(scrape, "process_cpu_usage")).isNotEmpty();
            assertThat(scrape.lines().filter(line -> !line.startsWith("#")))
                    .allMatch(line -> line.contains("application=\"producer-api\""));
        });
    }

    @Test
    void shouldServeMetricsAsPrometheusTextWithoutAuthentication() {
        // When
        HttpResponse<String> response = producer.management("/metrics");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).contains("# TYPE http_server_requests_seconds histogram");
    }

    private static String scrape() {
        HttpResponse<String> response = producer.management("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
