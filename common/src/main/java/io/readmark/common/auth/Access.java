package io.readmark.common.auth;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.common.http.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * One API's gate in front of its protected routes: {@code server.route("POST", "/v1/events",
 * access.require(AccessRule.scope(Scopes.PUBLISH), handler))}. It authenticates the bearer token (401), then lets the
 * route's {@link AccessRule} decide (400 for a bad path id, 403). Routes registered without it are public.
 * With authentication off, {@link #require} hands the handler back unchanged.
 */
public final class Access {

    private static final Logger log = LoggerFactory.getLogger(Access.class);
    private static final String BEARER = "bearer";
    /** The query parameter a token may come in where headers cannot be sent (RFC 6750 §2.3). */
    public static final String QUERY_TOKEN = "access_token";

    private final JwtVerifier verifier;

    Access(JwtVerifier verifier) {
        this.verifier = verifier;
    }

    /** Built once per API at startup; logs whether and how requests are authenticated. */
    public static Access from(String api, AuthConfig config) {
        if (!config.enabled()) {
            log.warn("{}: authentication is OFF ({}=off): every request is allowed. This is for local runs only.", api, AuthConfig.MODE);
            return new Access(null);
        }
        log.info("{}: bearer JWT authentication on: {}, issuer {}, audience {}", api, config.keys(),
                config.issuer() == null ? "any" : config.issuer(), config.audience());
        return new Access(new JwtVerifier(config, Clock.systemUTC()));
    }

    /** A route whose decision depends on what the body holds (each event of a batch, say), so it needs the caller. */
    @FunctionalInterface
    public interface CallerHandler {
        /** {@code caller} is null when authentication is off, as then every request is allowed. */
        Response handle(Request request, Principal caller) throws Exception;
    }

    public Route.Handler require(AccessRule rule, Route.Handler handler) {
        if (verifier == null) return handler;
        return request -> {
            check(rule, request);
            return handler.handle(request);
        };
    }

    /** As {@link #require}, handing the handler the authenticated caller for its own decisions on the body. */
    public Route.Handler requireCaller(AccessRule rule, CallerHandler handler) {
        if (verifier == null) return request -> handler.handle(request, null);
        return request -> handler.handle(request, check(rule, request));
    }

    /** As {@link #require}, for a route that never blocks (verifying a token is CPU work only). */
    public Route.AsyncHandler requireAsync(AccessRule rule, Route.AsyncHandler handler) {
        if (verifier == null) return handler;
        return request -> {
            check(rule, request);
            return handler.handle(request);
        };
    }

    /** A handler told who is calling: the principal of the token, empty when authentication is off. */
    @FunctionalInterface
    public interface PrincipalHandler {
        Response handle(Request request, Optional<Principal> principal) throws Exception;
    }

    /**
     * As {@link #require}, for a route that browsers open with {@code EventSource}, which cannot send headers: the token
     * may also come as the query parameter {@value #QUERY_TOKEN}, but only a short-lived one ({@code exp - iat} at
     * most {@code maxQueryTokenLifetime}), as a URL is more exposed than a header (browser history, proxy logs). The
     * handler gets the principal, so a response that outlasts the request (a stream) can end when the token does.
     */
    public Route.Handler requireAllowingQueryToken(AccessRule rule, Duration maxQueryTokenLifetime, PrincipalHandler handler) {
        if (verifier == null) return request -> handler.handle(request, Optional.empty());
        return request -> {
            Optional<String> queryToken = request.query(QUERY_TOKEN);
            Principal principal;
            if (queryToken.isEmpty()) {
                principal = authenticate(request.header("Authorization").orElse(null));
            } else if (request.header("Authorization").isPresent()) {
                // RFC 6750 §2: a client uses one way of sending the token, never two.
                throw ApiException.badRequest(QUERY_TOKEN, "send the token once: in Authorization or as " + QUERY_TOKEN + ", not both");
            } else {
                principal = shortLived(queryToken.get(), maxQueryTokenLifetime);
            }
            rule.check(principal, request);
            return handler.handle(request, Optional.of(principal));
        };
    }

    private Principal shortLived(String token, Duration maxLifetime) {
        Principal principal;
        try {
            principal = verifier.verify(token);
        } catch (InvalidTokenException e) {
            throw BearerChallenge.invalidToken(e.getMessage());
        }
        if (principal.lifetime() == null || principal.lifetime().compareTo(maxLifetime) > 0) {
            throw BearerChallenge.invalidToken("a token in the query must be short-lived: iat and exp at most "
                    + maxLifetime.toSeconds() + " s apart; send longer-lived tokens in the Authorization header");
        }
        return principal;
    }

    private Principal check(AccessRule rule, Request request) {
        Principal principal = authenticate(request.header("Authorization").orElse(null));
        rule.check(principal, request);
        return principal;
    }

    /** The principal of an {@code Authorization} header value (null when absent), or a 401. */
    Principal authenticate(String authorization) {
        String value = authorization == null ? "" : authorization.strip();
        int space = value.indexOf(' ');
        String scheme = space < 0 ? value : value.substring(0, space);
        if (!scheme.toLowerCase(Locale.ROOT).equals(BEARER)) {
            // RFC 6750 §3.1: no credentials of our scheme, so a bare challenge without an error code.
            throw BearerChallenge.missingToken("this needs a bearer token: Authorization: Bearer <JWT>");
        }
        String token = space < 0 ? "" : value.substring(space + 1).strip();
        if (token.isEmpty()) throw BearerChallenge.invalidToken("the Authorization header has no token after Bearer");
        try {
            return verifier.verify(token);
        } catch (InvalidTokenException e) {
            throw BearerChallenge.invalidToken(e.getMessage());
        }
    }
}
