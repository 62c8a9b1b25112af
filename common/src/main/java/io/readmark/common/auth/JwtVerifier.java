package io.readmark.common.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Turns a compact JWS into a {@link Principal}, or refuses it with the reason: shape, algorithm, key, signature,
 * then the time claims (with the clock skew), the issuer when one is configured and the API's audience, always. Signatures are checked by
 * nimbus-jose-jwt; this class only decides which key may check which token. Thread-safe.
 */
public final class JwtVerifier {

    /** Far above any real access token, low enough that parsing an oversized header costs nothing. */
    static final int MAX_TOKEN_CHARS = 16 * 1024;

    private final VerificationKeys keys;
    private final String issuer;
    private final String audience;
    private final Duration clockSkew;
    private final Clock clock;
    private final String acceptedAlgorithms;

    public JwtVerifier(AuthConfig config, Clock clock) {
        if (!config.enabled()) throw new IllegalArgumentException("authentication is off; there is nothing to verify with");
        this.keys = config.keys();
        this.issuer = config.issuer();
        this.audience = config.audience();
        this.clockSkew = config.clockSkew();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.acceptedAlgorithms = keys.algorithms().stream().map(JWSAlgorithm::getName).sorted().collect(Collectors.joining(", "));
    }

    public Principal verify(String token) throws InvalidTokenException {
        SignedJWT jwt = parse(token);
        verifySignature(jwt);
        JWTClaimsSet claims;
        try {
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            // Also a registered claim of the wrong type, such as a string exp: nimbus parses those up front.
            throw new InvalidTokenException("the token's claims are malformed");
        }
        verifyClaims(claims);
        return Principal.from(claims, clockSkew);
    }

    private static SignedJWT parse(String token) throws InvalidTokenException {
        if (token.length() > MAX_TOKEN_CHARS) {
            throw new InvalidTokenException("the token is longer than " + MAX_TOKEN_CHARS + " characters");
        }
        JWT jwt;
        try {
            jwt = JWTParser.parse(token);
        } catch (ParseException | RuntimeException e) {
            // nimbus reports most malformations as ParseException, but not every one (bad base64, odd JSON).
            throw new InvalidTokenException("the token is not a well-formed JWT");
        }
        return switch (jwt) {
            case SignedJWT signed -> signed;
            case PlainJWT ignored -> throw new InvalidTokenException("unsigned tokens (alg none) are not accepted");
            case EncryptedJWT ignored -> throw new InvalidTokenException("encrypted tokens are not accepted");
            default -> throw new InvalidTokenException("the token is not a well-formed JWT");
        };
    }

    private void verifySignature(SignedJWT jwt) throws InvalidTokenException {
        if (!keys.algorithms().contains(jwt.getHeader().getAlgorithm())) {
            throw new InvalidTokenException("the token's alg is not accepted; accepted: " + acceptedAlgorithms);
        }
        List<VerificationKeys.Key> candidates = keys.candidates(jwt.getHeader());
        if (candidates.isEmpty()) throw new InvalidTokenException("no verification key has the token's kid");
        for (VerificationKeys.Key key : candidates) {
            try {
                if (jwt.verify(key.verifier())) return;
            } catch (JOSEException | RuntimeException e) {
                // a signature this key cannot even check (wrong length, unknown crit header) is not its signature
            }
        }
        throw new InvalidTokenException("the token's signature does not verify");
    }

    private void verifyClaims(JWTClaimsSet claims) throws InvalidTokenException {
        Instant now = clock.instant();
        Date expires = claims.getExpirationTime();
        if (expires == null) throw new InvalidTokenException("the token has no exp (expiry) claim");
        if (!now.isBefore(expires.toInstant().plus(clockSkew))) throw new InvalidTokenException("the token has expired");
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && now.isBefore(notBefore.toInstant().minus(clockSkew))) {
            throw new InvalidTokenException("the token is not valid yet (nbf is in the future)");
        }
        Date issuedAt = claims.getIssueTime();
        if (issuedAt != null && now.isBefore(issuedAt.toInstant().minus(clockSkew))) {
            throw new InvalidTokenException("the token was issued in the future (iat)");
        }
        if (issuer != null && !issuer.equals(claims.getIssuer())) {
            throw new InvalidTokenException("the token's issuer (iss) is not accepted");
        }
        // Always checked: the audience is what keeps a token for the other API (same issuer, maybe same key) out.
        List<String> audiences = claims.getAudience();
        if (audiences.isEmpty()) throw new InvalidTokenException("the token has no aud (audience) claim");
        if (!audiences.contains(audience)) {
            throw new InvalidTokenException("the token's audience (aud) does not include this API");
        }
    }
}
