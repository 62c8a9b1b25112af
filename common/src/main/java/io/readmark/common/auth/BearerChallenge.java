package io.readmark.common.auth;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.Problem;

import java.util.Map;

/**
 * The RFC 6750 answers: 401 with a {@code WWW-Authenticate: Bearer} challenge, 403 naming the scope that is missing.
 * Descriptions are fixed texts of this package, never token content, so they are safe inside a quoted header value.
 */
final class BearerChallenge {

    static final String REALM = "Bearer realm=\"readmark\"";

    private BearerChallenge() {
    }

    /** No bearer token was sent at all: a plain challenge without an error code. */
    static ApiException missingToken(String detail) {
        return new ApiException(Problem.of(401, "Unauthorized", detail), Map.of("WWW-Authenticate", REALM));
    }

    static ApiException invalidToken(String description) {
        return new ApiException(Problem.of(401, "Unauthorized", description), Map.of("WWW-Authenticate",
                REALM + ", error=\"invalid_token\", error_description=\"" + description + "\""));
    }

    static ApiException insufficientScope(String scope, String detail) {
        return insufficientScope(scope, null, detail);
    }

    /** As {@link #insufficientScope(String, String)}, naming the input {@code field} that made the scope necessary. */
    static ApiException insufficientScope(String scope, String field, String detail) {
        return new ApiException(new Problem("about:blank", "Forbidden", 403, detail, field), Map.of("WWW-Authenticate",
                REALM + ", error=\"insufficient_scope\", scope=\"" + scope + "\""));
    }
}
