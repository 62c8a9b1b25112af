package io.readmark.processor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.readmark.common.config.Settings;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.commit.WriterPerThread;
import io.readmark.processor.fanout.FanoutProgress;
import io.readmark.processor.fanout.FanoutWorkerTopology;
import io.readmark.processor.fanout.RateLimiter;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The processor's health routes over a real Kafka Streams application: ready only while it is RUNNING. */
class ProcessorHealthIT {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldBeReadyOnlyWhileTheApplicationIsRunningAndLiveThroughout() throws Exception {
        // Given a fan-out worker application, created but not started
        Infrastructure infra = TestInfrastructure.shared();
        String run = "health-" + UUID.randomUUID();
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", infra.kafkaBootstrapServers(),
                "PROCESSOR_APPLICATION_ID", run,
                "PROCESSOR_STATE_DIR", Files.createTempDirectory("health").toString(),
                "READMARK_TOPIC_FANOUT", "fanout-" + run,
                "READMARK_TOPIC_DLQ", "dlq-" + run), Map.of()));
        KafkaTopics.createTopics(infra.kafkaBootstrapServers(), Map.of("fanout-" + run, 1, "dlq-" + run, 1));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RedisConnections redis = RedisConnections.connect(infra.redisUrl(), Duration.ofSeconds(5), false)) {
            WriterPerThread writers = new WriterPerThread(redis, new UnreadKeys(run), UnreadLimits.DEFAULTS, 100, applied -> { });
            StreamsApp app = new StreamsApp("fan-out worker",
                    FanoutWorkerTopology.build(config.topics(), writers, new RateLimiter(1_000), ProcessorConfig.DEFAULT_FANOUT_BURST,
                            new FanoutProgress(), new ProcessorMeters(registry)),
                    config.fanoutWorkerProperties(), writers, new ThreadCommits(), registry);
            HealthRoutes health = new HealthRoutes(() -> List.of(app));
            try (JsonHttpServer server = JsonHttpServer.management("test", new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), health::live, health::ready).start("127.0.0.1", 0)) {
                String base = "http://127.0.0.1:" + server.port();

                // Then not ready before it runs, naming the state
                HttpResponse<String> created = get(base + "/health/ready");
                assertThat(created.statusCode()).isEqualTo(503);
                assertThat(created.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                assertThat(created.headers().firstValue("Retry-After")).isPresent();
                assertThat(created.body()).contains("fan-out worker CREATED");
                assertThat(get(base + "/health/live").statusCode()).isEqualTo(200);

                // When it starts, then ready once RUNNING
                app.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> get(base + "/health/ready").statusCode() == 200);
                assertThat(get(base + "/health/ready").body()).isEqualTo("{\"status\":\"UP\"}");

                // When it is closed, then not ready, while the process still lives
                app.close();
                HttpResponse<String> closed = get(base + "/health/ready");
                assertThat(closed.statusCode()).isEqualTo(503);
                assertThat(closed.body()).contains("fan-out worker NOT_RUNNING");
                assertThat(get(base + "/health/live").statusCode()).isEqualTo(200);
            } finally {
                app.close();
            }
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
