package io.readmark.view;

import io.readmark.view.redis.RedisConnector;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.http.HttpResponse;
import java.time.Duration;

import static io.readmark.view.ViewApiFixture.contentType;
import static io.readmark.view.ViewApiFixture.json;
import static io.readmark.view.ViewApiFixture.metric;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** With Redis gone the API answers a quick, retryable 503 instead of hanging or failing with 500, and recovers alone. */
class RedisOutageIT {

    private static final String COUNTS = "/v1/users/101/unread";
    private static final String PAGE = "/v1/users/101/unread/7?limit=3";
    private static final String READY = "/health/ready";
    private static final String LIVE = "/health/live";
    private static final Duration FAST_ENOUGH = Duration.ofSeconds(3);
    private static final Duration RECOVERY = Duration.ofSeconds(30);
    private static final String CONNECTIONS_DOWN = "readmark_redis_connections_down";

    @AutoClose
    private static final EmbeddedRedis redis = EmbeddedRedis.start(0);
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.on(redis.url());

    @AfterEach
    void bringRedisBack() {
        if (!redis.isRunning()) redis.restart();
    }

    private static HttpResponse<String> timedGet(String path) {
        long started = System.nanoTime();
        HttpResponse<String> response = path.startsWith("/health/") ? view.management(path) : view.get(path);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("answer time of %s", path).isLessThan(FAST_ENOUGH);
        return response;
    }

    private static void assertRedisUnavailable(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(contentType(response)).isEqualTo("application/problem+json");
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        JsonNode problem = json(response);
        assertThat(problem.get("status").asInt()).isEqualTo(503);
        assertThat(problem.get("title").asText()).isEqualTo("Redis unavailable");
        assertThat(problem.get("detail").asText()).contains("Redis").contains("retry");
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("127.0.0.1");
    }

    @Test
    void shouldAnswer503QuicklyWhileRedisIsDownAndServeAgainOnceItIsBack() {
        // Given a working API
        view.deliver(101, 7, 1);
        assertThat(view.get(COUNTS).statusCode()).isEqualTo(200);

        // When Redis goes away
        redis.stop();

        // Then reads are refused quickly with a retryable problem, and the metrics say the connections are down
        assertRedisUnavailable(timedGet(COUNTS));
        assertRedisUnavailable(timedGet(PAGE));
        await().atMost(RECOVERY).until(() -> metric(view, CONNECTIONS_DOWN, "") > 0);

        // When Redis comes back
        redis.restart();

        // Then the API serves again without being restarted (the counts and the pages go through connections of
        // their own, each reconnecting on its own schedule), and every connection is back
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(view.get(COUNTS).statusCode()).isEqualTo(200));
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(view.get(PAGE).statusCode()).isEqualTo(200));
        await().atMost(RECOVERY).until(() -> metric(view, CONNECTIONS_DOWN, "") == 0);
    }

    @Test
    void shouldAnswer503WithinTheTimeoutWhenRedisHangsWithTheConnectionOpen() {
        // Given a working API
        assertThat(view.get(COUNTS).statusCode()).isEqualTo(200);

        // When Redis stops answering but keeps the connection open (as in a partition or a long-running command)
        try (RedisConnections admin = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false)) {
            admin.shared().sync().clientPause(view.config.redisTimeout().multipliedBy(3).toMillis());
        }

        // Then the command timeout turns the wait into a retryable problem instead of a hanging request
        assertRedisUnavailable(timedGet(COUNTS));
        assertRedisUnavailable(timedGet(READY));

        // And once Redis answers again so does the API
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(view.get(COUNTS).statusCode()).isEqualTo(200));
    }

    @Test
    void shouldReportNotReadyButStayLiveWhileRedisIsDown() {
        // Given a ready API
        assertThat(view.management(READY).statusCode()).isEqualTo(200);
        assertThat(view.management(READY).body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(view.management(LIVE).body()).isEqualTo("{\"status\":\"UP\"}");

        // When Redis goes away
        redis.stop();

        // Then readiness fails quickly while liveness holds, since a restart would not bring Redis back
        assertRedisUnavailable(timedGet(READY));
        HttpResponse<String> live = timedGet(LIVE);
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("{\"status\":\"UP\"}");

        // When Redis comes back
        redis.restart();

        // Then the API is ready again
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(view.management(READY).statusCode()).isEqualTo(200));
    }

    @Test
    void shouldStartWhileRedisIsDownAndServeOnceItComesUp() {
        ListAppender<ILoggingEvent> connectorLog = new ListAppender<>();
        connectorLog.start();
        Logger connectorLogger = (Logger) LoggerFactory.getLogger(RedisConnector.class);
        connectorLogger.addAppender(connectorLog);
        // Given a Redis that is not running yet
        try (EmbeddedRedis later = EmbeddedRedis.start(0)) {
            later.stop();

            // When the API starts
            try (ViewApiFixture starting = ViewApiFixture.on(later.url())) {

                // Then it serves HTTP: live, not ready, and reads are refused with a retryable problem
                assertThat(starting.management(LIVE).statusCode()).isEqualTo(200);
                assertRedisUnavailable(starting.management(READY));
                assertRedisUnavailable(starting.get(COUNTS));
                assertRedisUnavailable(starting.get(PAGE));
                assertThat(metric(starting, CONNECTIONS_DOWN, "")).isPositive();

                // When Redis starts
                later.restart();
                starting.deliver(101, 7, 1);

                // Then the API connects by itself, says so, and serves
                await().atMost(RECOVERY).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                        assertThat(ViewApiFixture.versionMasked(starting.get(COUNTS))).isEqualTo(
                                "{\"userId\":101,\"total\":1,\"unseen\":1,\"notices\":0,\"byAuthor\":{\"7\":1},\"version\":V}"));
                assertThat(starting.management(READY).statusCode()).isEqualTo(200);
                await().atMost(RECOVERY).until(() -> metric(starting, CONNECTIONS_DOWN, "") == 0);
                assertThat(connectorLog.list).anySatisfy(event -> {
                    assertThat(event.getLevel()).isEqualTo(Level.INFO);
                    assertThat(event.getFormattedMessage()).isEqualTo("view-api connected to Redis at " + later.url());
                });
            }
        } finally {
            connectorLogger.detachAppender(connectorLog);
        }
    }
}
