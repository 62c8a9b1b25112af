package io.readmark.view.push;

import io.readmark.view.SseClient;
import io.readmark.view.ViewApiFixture;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;

import static io.readmark.view.push.Pushes.json;
import static io.readmark.view.push.Pushes.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Who may open an unread stream, and how many: tokens in the header or (short-lived) in the query, and the limits. */
class UnreadStreamAccessIT {

    static final String SECRET = "a-shared-secret-of-at-least-32-bytes";
    @AutoClose
    private static final ViewApiFixture secured = ViewApiFixture.onSharedRedis(Map.of(
            "READMARK_AUTH", "jwt",
            "AUTH_JWT_HS256_SECRET", SECRET));
    @AutoClose
    private static final ViewApiFixture limited = ViewApiFixture.onSharedRedis(Map.of(
            StreamSettings.PER_USER, "2",
            StreamSettings.MAX_STREAMS, "3"));

    private static String token(String subject, Duration lifetime) {
        return token(subject, Instant.now().plus(lifetime));
    }

    /** A token of {@code subject} issued now, signed with {@link #SECRET}; {@code exp} is in whole seconds. */
    static String token(String subject, Instant expiresAt) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject).audience("readmark-view")
                .issueTime(new Date()).expirationTime(Date.from(expiresAt)).build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldOpenWithATokenInTheHeader() {
        try (SseClient stream = secured.stream(path(301), Map.of("Authorization", "Bearer " + token("301", Duration.ofHours(1))))) {
            assertThat(stream.status).isEqualTo(200);
            assertThat(json(stream.nextEvent("counts").data()).get("userId").asLong()).isEqualTo(301);
        }
    }

    @Test
    void shouldOpenWithAShortLivedTokenInTheQuery() {
        try (SseClient stream = secured.stream(path(301) + "?access_token=" + token("301", Duration.ofMinutes(5)), Map.of())) {
            assertThat(stream.status).isEqualTo(200);
            stream.nextEvent("counts");
        }
    }

    @Test
    void shouldRefuseALongLivedTokenInTheQuery() {
        try (SseClient stream = secured.stream(path(301) + "?access_token=" + token("301", Duration.ofHours(1)), Map.of())) {
            assertThat(stream.status).isEqualTo(401);
            assertThat(stream.headers.get("www-authenticate")).contains("invalid_token");
            assertThat(json(stream.body()).get("detail").asText()).contains("short-lived");
        }
    }

    @Test
    void shouldRefuseAnotherUsersTokenAndNoToken() {
        try (SseClient stream = secured.stream(path(302) + "?access_token=" + token("301", Duration.ofMinutes(1)), Map.of())) {
            assertThat(stream.status).isEqualTo(403);
        }
        try (SseClient stream = secured.stream(path(302), Map.of("Authorization", "Bearer " + token("301", Duration.ofHours(1))))) {
            assertThat(stream.status).isEqualTo(403);
        }
        try (SseClient stream = secured.stream(path(302), Map.of())) {
            assertThat(stream.status).isEqualTo(401);
        }
    }

    @Test
    void shouldRefuseStreamsBeyondTheLimitsNamingThem() {
        List<SseClient> open = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) open.add(limited.stream(path(401), Map.of()));
            try (SseClient third = limited.stream(path(401), Map.of())) {
                assertThat(third.status).isEqualTo(429);
                assertThat(third.headers.get("content-type")).isEqualTo("application/problem+json");
                assertThat(json(third.body()).get("detail").asText()).contains(StreamSettings.PER_USER);
            }
            open.add(limited.stream(path(402), Map.of()));
            try (SseClient fourth = limited.stream(path(403), Map.of())) {
                assertThat(fourth.status).isEqualTo(503);
                assertThat(json(fourth.body()).get("detail").asText()).contains(StreamSettings.MAX_STREAMS);
            }
            open.forEach(stream -> assertThat(stream.status).isEqualTo(200));

            // A closed stream frees its place.
            open.removeFirst().close();
            await().untilAsserted(() -> {
                try (SseClient again = limited.stream(path(403), Map.of())) {
                    assertThat(again.status).isEqualTo(200);
                }
            });
        } finally {
            open.forEach(SseClient::close);
        }
    }
}
