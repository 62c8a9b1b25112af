package io.readmark.launcher;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;

/** HS256 bearer tokens for APIs started with {@link #SETTINGS}. */
final class TestTokens {

    static final String SECRET = "readmark-tests-hs256-secret-0123456789abcdef";
    static final Map<String, String> SETTINGS = Map.of("READMARK_AUTH", "jwt", "AUTH_JWT_HS256_SECRET", SECRET);

    private TestTokens() {
    }

    /** A service token allowed to publish and to read any user. */
    static String service() {
        return sign(new JWTClaimsSet.Builder().subject("blog-service").claim("scope", "readmark:publish readmark:read-any"));
    }

    /** A user token: may read only this user's unread state, may not publish. */
    static String user(long userId) {
        return sign(new JWTClaimsSet.Builder().subject(Long.toString(userId)));
    }

    static String expired() {
        return sign(new JWTClaimsSet.Builder().subject("blog-service").claim("scope", "readmark:publish readmark:read-any")
                .expirationTime(Date.from(Instant.now().minus(Duration.ofHours(1)))));
    }

    static String bearer(String token) {
        return "Bearer " + token;
    }

    private static String sign(JWTClaimsSet.Builder claims) {
        JWTClaimsSet built = claims.build();
        if (built.getExpirationTime() == null) {
            built = new JWTClaimsSet.Builder(built).expirationTime(Date.from(Instant.now().plus(Duration.ofHours(1)))).build();
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), built);
        try {
            jwt.sign(new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }
}
