package io.readmark.cli;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeyLengthException;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.readmark.common.config.Settings;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * {@code readmark token}: signs an HS256 JWT with the secret the APIs verify ({@code AUTH_JWT_HS256_SECRET}) and
 * the issuer and audience they expect, so a deployment can be tried with curl. The subject is a user id (a user
 * reads their own unread state) or a service's name; scopes such as {@code readmark:publish} go in {@code scope}.
 * Not an identity provider: whoever holds the secret can mint any token.
 */
final class TokenCommand {

    static final String SECRET = "AUTH_JWT_HS256_SECRET";
    static final String ISSUER = "AUTH_JWT_ISSUER";
    static final String AUDIENCE = "AUTH_JWT_AUDIENCE";
    static final String SUBJECT = "TOKEN_SUBJECT";
    static final String TTL = "TOKEN_TTL";
    static final String SCOPE = "TOKEN_SCOPE";

    private TokenCommand() {
    }

    /** The compact serialization of a token issued at {@code now}; a missing or unusable setting is named. */
    static String sign(Settings settings, Instant now) {
        String secret = require(settings, SECRET, "the secret the APIs verify tokens with");
        String subject = require(settings, SUBJECT, "the token's subject, e.g. --token-subject 101");
        Duration ttl = settings.duration(TTL, Duration.ofHours(1));
        if (!ttl.isPositive()) throw new IllegalArgumentException(TTL + " must be positive, was " + ttl);

        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(subject)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(ttl)));
        settings.find(ISSUER).ifPresent(claims::issuer);
        settings.find(AUDIENCE).ifPresent(claims::audience);
        settings.find(SCOPE).ifPresent(scope -> claims.claim("scope", scope));

        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
        try {
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (KeyLengthException e) {
            throw new IllegalArgumentException(SECRET + " must be at least 32 bytes for HS256", e);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign the token: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    private static String require(Settings settings, String name, String meaning) {
        return settings.find(name).orElseThrow(() -> new IllegalArgumentException("token needs " + name + ": " + meaning));
    }
}
