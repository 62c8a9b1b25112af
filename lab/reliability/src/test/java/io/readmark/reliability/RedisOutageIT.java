package io.readmark.reliability;

import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.TestInfrastructure;
import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis stopped for 20 s while the workload flows. The processor process stays the same process with its Kafka
 * Streams applications alive, logs that its writes fail and are retried, and says when they succeed again; a view
 * API on the same Redis answers a quick 503 problem meanwhile. Once Redis is back (with its data: append-only file)
 * nothing was skipped: the state ends exactly the model's.
 */
class RedisOutageIT {

    private static final Duration OUTAGE = Duration.ofSeconds(20);
    private static final Duration QUICK = Duration.ofMillis(1_500);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void shouldPauseAndRetryThroughARedisOutageAndSkipNothing() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.startPersistent(0);
             Harness harness = Scenario.on("redis-outage", TestInfrastructure.shared().kafkaBootstrapServers(), redis.url(), redis);
             ViewApi view = ViewApi.start(ViewApiConfig.from(Settings.of(Map.of(ViewApiConfig.HOST, "127.0.0.1",
                     ViewApiConfig.PORT, "0", ViewApiConfig.MANAGEMENT_PORT, "0", ViewApiConfig.REDIS_URL, redis.url(),
                     ViewApiConfig.REDIS_PREFIX, harness.pipeline().names().redisPrefix(), AuthConfig.MODE, "off"), Map.of())))) {
            ProcessorProcess processor = harness.startProcessor("processor");
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 1_000);
            long pid = processor.pid();
            assertThat(unreadCounts(view).statusCode()).isEqualTo(200);

            new RedisOutage(OUTAGE, (h, redisBackAt) -> {
                Duration rest = Duration.between(Instant.now(), redisBackAt).minusSeconds(1);
                await("while Redis is down").during(rest).atMost(rest.plusSeconds(10)).pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> {
                            assertViewAnswersAQuick503(view);
                            assertThat(processor.isAlive()).as("the processor process is alive").isTrue();
                            assertThat(processor.pid()).as("and the same process").isEqualTo(pid);
                            assertThat(processor.get("/health/ready").body())
                                    .as("no Kafka Streams application failed").doesNotContain("ERROR", "NOT_RUNNING", "PENDING_");
                        });
                assertThat(processor.log()).as("the processor says it retries").contains("Redis writes failed, retrying");
            }).inject(harness, new Random(Scenario.SEED));

            await().atMost(Duration.ofSeconds(30)).until(() -> processor.log().contains("Redis writes succeeded again"));
            await("the view API serves again").atMost(Duration.ofSeconds(30)).until(() -> unreadCounts(view).statusCode() == 200);
            Scenario.awaitMoreEvents(workload, 1_000);
            Scenario.stopDrainAndCheck(harness, workload);
            assertThat(processor.pid()).as("never restarted").isEqualTo(pid);
            assertThat(processor.starts()).isEqualTo(1);
        }
    }

    private static void assertViewAnswersAQuick503(ViewApi view) throws Exception {
        long started = System.nanoTime();
        HttpResponse<String> response = unreadCounts(view);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("answer time").isLessThan(QUICK);
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":503", "Redis unavailable");
    }

    private static HttpResponse<String> unreadCounts(ViewApi view) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + view.port() + "/v1/users/1/unread"))
                .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
