package io.readmark.common.auth;

import com.nimbusds.jwt.JWTClaimsSet;
import io.readmark.common.http.CanonicalNumbers;

import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Who a verified token speaks for: its subject ({@code sub}, null when absent) and its scopes. A user token's subject
 * is the user id in canonical decimal; a service token carries a Readmark scope. {@code lifetime} is {@code exp - iat},
 * null when the token has no {@code iat}. {@code validUntil} is the instant from which the verifier refuses the token:
 * its {@code exp} plus the clock skew allowed (null only for a principal made without a token).
 */
public record Principal(String subject, Set<String> scopes, Duration lifetime, Instant validUntil) {

    public Principal {
        scopes = Set.copyOf(scopes);
    }

    public Principal(String subject, Set<String> scopes) {
        this(subject, scopes, null, null);
    }

    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }

    /**
     * The subject as a user id, when it is spelled as path ids are ({@link CanonicalNumbers#positiveId}). Any other
     * spelling of a number ({@code 0101}, {@code +101}, non-ASCII digits) is no user id: it would let one token
     * stand for a user the paths would call by another name.
     */
    public OptionalLong userId() {
        return CanonicalNumbers.positiveId(subject);
    }

    /**
     * Scopes from {@code scope} (space-separated, RFC 8693) and {@code scp} (array or string), as issuers differ; the
     * claims have an {@code exp}, accepted until {@code clockSkew} after it.
     */
    static Principal from(JWTClaimsSet claims, Duration clockSkew) throws InvalidTokenException {
        Set<String> scopes = new LinkedHashSet<>();
        try {
            addSpaceSeparated(scopes, claims.getStringClaim("scope"));
            Object scp = claims.getClaim("scp");
            if (scp instanceof String value) {
                addSpaceSeparated(scopes, value);
            } else if (scp != null) {
                for (String scope : claims.getStringArrayClaim("scp")) addSpaceSeparated(scopes, scope);
            }
            Duration lifetime = claims.getIssueTime() == null ? null
                    : Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant());
            Instant validUntil = claims.getExpirationTime().toInstant().plus(clockSkew);
            return new Principal(claims.getSubject(), scopes, lifetime, validUntil);
        } catch (ParseException e) {
            throw new InvalidTokenException("the token's scope or scp claim is neither a string nor an array of strings");
        }
    }

    private static void addSpaceSeparated(Set<String> scopes, String value) {
        if (value == null) return;
        for (String scope : value.split(" ")) {
            if (!scope.isEmpty()) scopes.add(scope);
        }
    }
}
