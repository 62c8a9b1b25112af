package io.readmark.view;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static io.readmark.infra.PrometheusText.samples;
import static io.readmark.infra.PrometheusText.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the view API reports at {@code /metrics} after real reads from a real Redis. */
class ViewApiMetricsIT {

    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis();

    @Test
    void shouldReportRequestLatencyByRouteTemplateRedisCommandLatencyAndTheJvm() {
        // Given reads that succeed and one with a bad id
        view.deliver(101, 7, 1001);
        assertThat(view.get("/v1/users/101/unread").statusCode()).isEqualTo(200);
        assertThat(view.get("/v1/users/102/unread").statusCode()).isEqualTo(200);
        assertThat(view.get("/v1/users/101/unread/7?limit=5").statusCode()).isEqualTo(200);
        assertThat(view.get("/v1/users/abc/unread").statusCode()).isEqualTo(400);

        // When scraped (a request is timed once its answer is written, which the client may see first)
        await().untilAsserted(() -> {
            String scrape = scrape();

            // Then requests are counted per route template, never per user
            assertThat(sum(scrape, "http_server_requests_seconds_count", "route=\"/v1/users/{userId}/unread\"", "status=\"200\""))
                    .isGreaterThanOrEqualTo(2);
            assertThat(sum(scrape, "http_server_requests_seconds_count", "route=\"/v1/users/{userId}/unread/{authorId}\"",
                    "status=\"200\"")).isGreaterThanOrEqualTo(1);
            assertThat(sum(scrape, "http_server_requests_seconds_count", "route=\"/v1/users/{userId}/unread\"", "status=\"400\""))
                    .isGreaterThanOrEqualTo(1);
            assertThat(scrape).doesNotContain("/v1/users/101");
            // And Redis commands are timed, as histograms
            assertThat(sum(scrape, "lettuce_command_completion_seconds_count", "command=\"HSCAN\"")).isGreaterThanOrEqualTo(2);
            assertThat(samples(scrape, "lettuce_command_completion_seconds_bucket", "le=")).isNotEmpty();
            assertThat(samples(scrape, "jvm_threads_live_threads")).isNotEmpty();
            assertThat(scrape.lines().filter(line -> !line.startsWith("#")))
                    .allMatch(line -> line.contains("application=\"view-api\""));
        });
    }

    @Test
    void shouldServeMetricsAsPrometheusText() {
        // When
        HttpResponse<String> response = view.management("/metrics");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(ViewApiFixture.contentType(response)).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
    }

    @Test
    void shouldServeHealthAndMetricsOnlyOnTheManagementPort() {
        for (String path : new String[]{"/metrics", "/health/live", "/health/ready"}) {
            assertThat(view.get(path).statusCode()).as(path).isEqualTo(404);
            assertThat(view.management(path).statusCode()).as(path).isEqualTo(200);
        }
        assertThat(view.management("/v1/users/1/unread").statusCode()).isEqualTo(404);
    }

    private static String scrape() {
        HttpResponse<String> response = view.management("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
