package io.readmark.common.auth;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.Request;

import java.util.List;

/** Who may call one route, decided after the caller was authenticated. */
@FunctionalInterface
public interface AccessRule {

    /**
     * Returns when {@code principal} may make {@code request}.
     *
     * @throws ApiException 403 when it may not; 400 when a path id the rule needs is malformed
     */
    void check(Principal principal, Request request);

    /** Tokens carrying {@code scope}, typically services. */
    static AccessRule scope(String scope) {
        return anyScope(List.of(scope));
    }

    /** Tokens carrying at least one of {@code scopes}; the 403 names them all, space-separated as RFC 6750 writes scopes. */
    static AccessRule anyScope(List<String> scopes) {
        List<String> allowed = List.copyOf(scopes);
        String challenge = String.join(" ", allowed);
        String detail = "this needs a token with scope " + String.join(" or ", allowed);
        return (principal, request) -> {
            for (String scope : allowed) {
                if (principal.hasScope(scope)) return;
            }
            throw BearerChallenge.insufficientScope(challenge, detail);
        };
    }

    /**
     * The user named by the path variable {@code userIdVariable} reading their own state (the token's subject is that
     * user id), or a token with {@code anyUserScope}. The id is validated first, so a malformed one is a 400, not a 403.
     * Path id and subject are both read by {@link io.readmark.common.http.CanonicalNumbers}, so a user has one spelling
     * in both and a subject such as {@code 0101} matches no path.
     */
    static AccessRule ownUser(String userIdVariable, String anyUserScope) {
        return (principal, request) -> {
            long userId = Request.positiveId(userIdVariable, request.pathVariable(userIdVariable));
            if (principal.hasScope(anyUserScope)) return;
            if (principal.userId().isPresent() && principal.userId().getAsLong() == userId) return;
            throw BearerChallenge.insufficientScope(anyUserScope,
                    "a user token may read only its own unread state; reading user " + userId + " needs scope " + anyUserScope);
        };
    }
}
