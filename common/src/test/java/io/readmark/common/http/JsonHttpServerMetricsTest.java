package io.readmark.common.http;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The server's request timer and its {@code /metrics} route, on the real server. */
class JsonHttpServerMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpClient http = HttpClient.newHttpClient();
    private JsonHttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = new JsonHttpServer("test").measuredBy(registry).metricsRoute(registry)
                .route("GET", "/v1/users/{userId}", request ->
                        Response.ok(Map.of("userId", Request.positiveId("userId", request.pathVariable("userId")))))
                .route("GET", "/boom", request -> {
                    throw new IllegalStateException("a bug");
                })
                .start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
        http.close();
        registry.close();
    }

    @Test
    void shouldTimeEveryAnsweredRequestByRouteTemplateAndStatus() throws Exception {
        // When
        assertThat(send("GET", "/v1/users/101")).isEqualTo(200);
        assertThat(send("GET", "/v1/users/102")).isEqualTo(200);
        assertThat(send("GET", "/v1/users/abc")).isEqualTo(400);
        assertThat(send("POST", "/v1/users/101")).isEqualTo(405);
        assertThat(send("GET", "/nothing/here")).isEqualTo(404);
        assertThat(send("GET", "/boom")).isEqualTo(500);

        // Then (a request is timed once its answer is written, which the client may see first)
        await().untilAsserted(() -> {
            assertThat(timer("GET", "/v1/users/{userId}", "200").count()).isEqualTo(2);
            assertThat(timer("GET", "/v1/users/{userId}", "400").count()).isEqualTo(1);
            assertThat(timer("POST", "/v1/users/{userId}", "405").count()).isEqualTo(1);
            assertThat(timer("GET", "UNKNOWN", "404").count()).isEqualTo(1);
            assertThat(timer("GET", "/boom", "500").count()).isEqualTo(1);
        });
        assertThat(registry.getMeters()).flatMap(meter -> meter.getId().getTags()).extracting(Tag::getValue)
                .as("raw paths would make a series per id").doesNotContain("/v1/users/101", "/nothing/here");
    }

    @Test
    void shouldTagMethodsItDoesNotKnowAsOther() throws Exception {
        // When a client invents methods
        send("BREW", "/v1/users/1");
        send("FETCH", "/v1/users/1");

        // Then they share one series
        await().untilAsserted(() -> assertThat(timer("OTHER", "/v1/users/{userId}", "405").count()).isEqualTo(2));
    }

    @Test
    void shouldServeTheScrapeAsPrometheusTextWithLatencyBuckets() throws Exception {
        // Given
        send("GET", "/v1/users/7");
        await().until(() -> registry.find("http.server.requests").timer() != null);

        // When
        HttpResponse<String> scrape = http.send(HttpRequest.newBuilder(uri("/metrics")).build(), HttpResponse.BodyHandlers.ofString());

        // Then
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(scrape.body().lines())
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/v1/users/{userId}\",status=\"200\"} 1")
                .anyMatch(line -> line.startsWith("http_server_requests_seconds_bucket{method=\"GET\",route=\"/v1/users/{userId}\",status=\"200\",le=\""));
    }

    private Timer timer(String method, String route, String status) {
        return registry.get("http.server.requests").tags("method", method, "route", route, "status", status).timer();
    }

    private int send(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri(path)).method(method, HttpRequest.BodyPublishers.noBody()).build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
