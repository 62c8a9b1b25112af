package io.readmark.view.redis;

import io.readmark.view.ViewApiConfig;
import io.readmark.view.ViewApiFixture;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static io.readmark.view.ViewApiFixture.contentType;
import static io.readmark.view.ViewApiFixture.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * After a few consecutive Redis failures the API stops asking Redis for a while and answers 503 at once, even when
 * Redis hangs and each call would otherwise wait out the command timeout; one trial call afterwards closes it again.
 */
class CircuitBreakerIT {

    private static final String COUNTS = "/v1/users/101/unread";
    private static final String OTHER_COUNTS = "/v1/users/102/unread";
    private static final String READY = "/health/ready";
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final int FAILURES = 2;
    private static final Duration OPEN = Duration.ofSeconds(8);
    /** Well under the command timeout: an answer this fast did not wait for Redis. */
    private static final Duration AT_ONCE = TIMEOUT.dividedBy(4);
    private static final Duration RECOVERY = OPEN.plusSeconds(20);

    @AutoClose
    private static final EmbeddedRedis redis = EmbeddedRedis.start(0);
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.on(redis.url(), Map.of(
            ViewApiConfig.REDIS_TIMEOUT, TIMEOUT.toString(),
            ViewApiConfig.CIRCUIT_FAILURES, Integer.toString(FAILURES),
            ViewApiConfig.CIRCUIT_OPEN, OPEN.toString()));

    @AfterEach
    void bringRedisBack() {
        if (!redis.isRunning()) redis.restart();
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(view.management(READY).statusCode()).isEqualTo(200));
    }

    private record Timed(HttpResponse<String> response, Duration took) {
    }

    private static Timed timedGet(String path) {
        long started = System.nanoTime();
        HttpResponse<String> response = path.startsWith("/health/") ? view.management(path) : view.get(path);
        return new Timed(response, Duration.ofNanos(System.nanoTime() - started));
    }

    private static void assertUnavailable(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(contentType(response)).isEqualTo("application/problem+json");
        assertThat(json(response).get("title").asText()).isEqualTo("Redis unavailable");
    }

    /** The 503 of an open circuit: at once, and Retry-After says when the trial call will be let through. */
    private static void assertRefusedAtOnce(String path) {
        Timed timed = timedGet(path);
        assertUnavailable(timed.response());
        assertThat(timed.took()).as("answer time of %s with the circuit open", path).isLessThan(AT_ONCE);
        JsonNode problem = json(timed.response());
        assertThat(problem.get("detail").asText()).contains("refused without asking");
        assertThat(Integer.parseInt(timed.response().headers().firstValue("Retry-After").orElseThrow()))
                .isBetween(1, (int) OPEN.toSeconds());
    }

    @Test
    void shouldAnswerAtOnceWithoutWaitingForAHangingRedisOnceTheCircuitIsOpen() {
        // Given a working API
        assertThat(view.get(COUNTS).statusCode()).isEqualTo(200);
        try (RedisConnections admin = RedisConnections.connect(redis.url(), Duration.ofSeconds(30), false)) {
            // When Redis stops answering with the connection open, longer than the failures take
            admin.shared().sync().clientPause(TIMEOUT.multipliedBy(FAILURES + 2).toMillis());

            // Then the first requests, of several users, wait out the command timeout
            for (int i = 0; i < FAILURES; i++) {
                Timed timed = timedGet(i % 2 == 0 ? COUNTS : OTHER_COUNTS);
                assertUnavailable(timed.response());
                assertThat(timed.took()).isGreaterThanOrEqualTo(TIMEOUT.minusMillis(100));
            }
            // And after them the API answers at once, reads and readiness alike
            assertRefusedAtOnce(COUNTS);
            assertRefusedAtOnce(READY);

            // When Redis answers again (this PING returns only once the pause is over) while the circuit is still open
            assertThat(admin.shared().sync().ping()).isEqualTo("PONG");

            // Then the API still refuses without asking Redis, until the open time is over
            assertRefusedAtOnce(READY);
        }
        // And then one trial call closes the circuit
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(view.get(COUNTS).statusCode()).isEqualTo(200));
        assertThat(view.management(READY).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldKeepServingEveryoneElseWhileOneUsersReadsKeepFailing() {
        // Given a user whose every read fails in Redis, and another user
        view.breakCountsOf(666);
        view.deliver(101, 7, 1);

        // When the first one keeps reading, far more often than the failures that open a circuit
        for (int i = 0; i < FAILURES; i++) assertUnavailable(view.get("/v1/users/666/unread"));
        for (int i = 0; i < 10; i++) assertRefusedAtOnce("/v1/users/666/unread");

        // Then only that user is refused: others are served and the instance stays ready
        for (int i = 0; i < 10; i++) assertThat(view.get(COUNTS).statusCode()).isEqualTo(200);
        assertThat(view.management(READY).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldRefuseAtOnceWhileRedisIsStoppedAndServeAgainOnceItIsBack() {
        // Given a working API
        view.deliver(101, 7, 1);
        assertThat(view.get(COUNTS).statusCode()).isEqualTo(200);

        // When Redis goes away
        redis.stop();

        // Then, after the failures that open the circuit, every answer is an immediate 503, never a 500
        for (int i = 0; i < FAILURES; i++) assertUnavailable(view.get(COUNTS));
        assertRefusedAtOnce(OTHER_COUNTS);
        for (int i = 0; i < 5; i++) assertRefusedAtOnce(COUNTS);
        assertRefusedAtOnce(READY);

        // When Redis comes back
        redis.restart();

        // Then the API serves again once the open time is over
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(view.get(COUNTS).statusCode()).isEqualTo(200));
    }
}
