package io.readmark.view.push;

import io.readmark.view.SseClient;
import io.readmark.view.ViewApiFixture;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.readmark.view.ViewApiFixture.metric;
import static io.readmark.view.push.UnreadStreamAccessIT.SECRET;
import static io.readmark.view.push.UnreadStreamAccessIT.token;
import static io.readmark.view.push.Pushes.json;
import static io.readmark.view.push.Pushes.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Streams end by themselves: when their token expires, and at their maximum age, each time with a last event
 * {@code reconnect} that says why; a client then reconnects (with a fresh token if that expired) to a fresh snapshot.
 */
class UnreadStreamLifetimeIT {

    /** A stream ends at the first heartbeat after its lifetime: this is ample for that, on a busy machine too. */
    private static final Duration LATE = Duration.ofSeconds(3);
    @AutoClose
    private static final ViewApiFixture secured = ViewApiFixture.onSharedRedis(Map.of(
            "READMARK_AUTH", "jwt",
            "AUTH_JWT_HS256_SECRET", SECRET,
            "AUTH_CLOCK_SKEW", "PT0S",
            StreamSettings.HEARTBEAT, "PT0.2S"));
    @AutoClose
    /** One stream per user, so the reconnect after an ending proves the ended stream gave its slot back. */
    private static final ViewApiFixture aging = ViewApiFixture.onSharedRedis(Map.of(
            StreamSettings.MAX_AGE, "PT1S",
            StreamSettings.HEARTBEAT, "PT0.2S",
            StreamSettings.PER_USER, "1"));
    private static final AtomicLong users = new AtomicLong(6_000);

    /** The stream's last event, and that the server closed the stream after it. */
    private static JsonNode lastEvent(SseClient stream, Duration within) {
        JsonNode body = json(stream.nextEvent(UnreadStream.RECONNECT, within).data());
        assertThat(stream.next(Duration.ofSeconds(5))).as("the server closes the stream after its last event").isNull();
        return body;
    }

    @Test
    void shouldEndAStreamWhenItsQueryTokenExpiresAndLetAFreshTokenReconnect() {
        // Given: a token that expires in two to three seconds (exp is in whole seconds)
        long user = users.incrementAndGet();
        secured.deliver(user, 7, 1);
        Instant expiresAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
        String expiring = token(Long.toString(user), expiresAt);
        double endedBefore = metric(secured, "readmark_streams_dropped_total", "reason=\"token-expired\"");

        try (SseClient stream = secured.stream(path(user) + "?access_token=" + expiring, Map.of())) {
            assertThat(json(stream.nextEvent("counts").data()).get("total").asLong()).isEqualTo(1);

            // When: the token expires
            JsonNode last = lastEvent(stream, Duration.ofSeconds(3).plus(LATE));

            // Then: the stream ended by itself, not before the expiry, saying why
            Instant endedAt = Instant.now();
            assertThat(last.get("reason").asText()).isEqualTo("token-expired");
            assertThat(endedAt).isAfterOrEqualTo(expiresAt).isBefore(expiresAt.plus(LATE));
        }
        await().until(() -> metric(secured, "readmark_streams_dropped_total", "reason=\"token-expired\"") == endedBefore + 1);

        // The same token no longer opens a stream; a fresh one does, to a fresh snapshot.
        try (SseClient again = secured.stream(path(user) + "?access_token=" + expiring, Map.of())) {
            assertThat(again.status).isEqualTo(401);
        }
        String fresh = token(Long.toString(user), Instant.now().plusSeconds(60));
        try (SseClient reconnected = secured.stream(path(user) + "?access_token=" + fresh, Map.of())) {
            assertThat(reconnected.status).isEqualTo(200);
            assertThat(json(reconnected.nextEvent("counts").data()).get("total").asLong()).isEqualTo(1);
        }
    }

    @Test
    void shouldEndAStreamWhenItsHeaderTokenExpires() {
        // Given
        long user = users.incrementAndGet();
        Instant expiresAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
        String expiring = token(Long.toString(user), expiresAt);

        try (SseClient stream = secured.stream(path(user), Map.of("Authorization", "Bearer " + expiring))) {
            stream.nextEvent("counts");

            // When / Then
            assertThat(lastEvent(stream, Duration.ofSeconds(3).plus(LATE)).get("reason").asText()).isEqualTo("token-expired");
            assertThat(Instant.now()).isAfterOrEqualTo(expiresAt);
        }
    }

    @Test
    void shouldEndAStreamAtItsMaximumAgeWithoutAuthenticationAndFreeItsSlot() {
        // Given: authentication off, a maximum age of a second
        long user = users.incrementAndGet();
        aging.deliver(user, 7, 1, 2);
        double endedBefore = metric(aging, "readmark_streams_dropped_total", "reason=\"max-age\"");
        long openedAt = System.nanoTime();

        try (SseClient stream = aging.stream(path(user), Map.of())) {
            stream.nextEvent("counts");

            // When
            JsonNode last = lastEvent(stream, Duration.ofSeconds(1).plus(LATE));

            // Then: not before four fifths of the maximum age (the jitter), and said why
            assertThat(Duration.ofNanos(System.nanoTime() - openedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(800));
            assertThat(last.get("reason").asText()).isEqualTo("max-age");
        }
        // Counted, and its slot given back, once the server's side of the stream is gone.
        await().until(() -> metric(aging, "readmark_streams_dropped_total", "reason=\"max-age\"") == endedBefore + 1
                && metric(aging, "readmark_streams_open", "") == 0);

        // A reconnect gets a fresh snapshot.
        try (SseClient reconnected = aging.stream(path(user), Map.of())) {
            assertThat(json(reconnected.nextEvent("counts").data()).get("total").asLong()).isEqualTo(2);
        }
    }
}
