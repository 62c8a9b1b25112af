package io.readmark.e2e;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.readmark.common.auth.AuthConfig;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * HS256 bearer tokens for APIs started with {@link #SETTINGS}. Both APIs run in one process here and so share the
 * secret (a deployment gives each its own key pair); each still accepts only tokens for its own audience, so every
 * token is minted for one API.
 */
final class TestTokens {

    static final String SECRET = "readmark-tests-hs256-secret-0123456789abcdef";
    static final Map<String, String> SETTINGS = Map.of("READMARK_AUTH", "jwt", "AUTH_JWT_HS256_SECRET", SECRET);

    private TestTokens() {
    }

    /** A service token for the producer API, allowed to publish. */
    static String publisher() {
        return sign(claims("blog-service", AuthConfig.PRODUCER_API_AUDIENCE).claim("scope", "readmark:publish"));
    }

    /** A service token for the view API, allowed to read any user. */
    static String reader() {
        return sign(claims("notification-service", AuthConfig.VIEW_API_AUDIENCE).claim("scope", "readmark:read-any"));
    }

    /** A user token for the view API: may read only this user's unread state. */
    static String user(long userId) {
        return sign(claims(Long.toString(userId), AuthConfig.VIEW_API_AUDIENCE));
    }

    /** A user token for the producer API: authenticated there, but without the scope to publish. */
    static String producerUser(long userId) {
        return sign(claims(Long.toString(userId), AuthConfig.PRODUCER_API_AUDIENCE));
    }

    /** A user token for the producer API that may publish this user's own read events, and nothing else. */
    static String producerReads(long userId) {
        return sign(claims(Long.toString(userId), AuthConfig.PRODUCER_API_AUDIENCE).claim("scope", "readmark:publish:reads"));
    }

    /** Would be a service token for both APIs, but has expired. */
    static String expired() {
        return sign(new JWTClaimsSet.Builder().subject("blog-service").claim("scope", "readmark:publish readmark:read-any")
                .audience(List.of(AuthConfig.PRODUCER_API_AUDIENCE, AuthConfig.VIEW_API_AUDIENCE))
                .expirationTime(Date.from(Instant.now().minus(Duration.ofHours(1)))));
    }

    static String bearer(String token) {
        return "Bearer " + token;
    }

    private static JWTClaimsSet.Builder claims(String subject, String audience) {
        return new JWTClaimsSet.Builder().subject(subject).audience(audience)
                .expirationTime(Date.from(Instant.now().plus(Duration.ofHours(1))));
    }

    private static String sign(JWTClaimsSet.Builder claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
        try {
            jwt.sign(new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }
}
