package io.readmark.common.http;

import io.readmark.common.config.Settings;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which browser origins may call an API (CORS). Tokens travel in the {@code Authorization} header (or, for event
 * streams, a short-lived token in the query), never in cookies, so no origin is ever allowed credentials: a page of an
 * allowed origin can call the API only with a token it holds itself, and a page of any other origin cannot read a
 * single answer. No origin is allowed unless configured.
 *
 * @param origins the allowed origins as browsers send them ({@code https://app.example.com}, lower case, no path)
 * @param any     every origin is allowed ({@code *}): for public, token-protected APIs only
 */
public record CorsPolicy(Set<String> origins, boolean any) {

    /** Request headers a page may send; everything the APIs read. */
    static final String ALLOWED_HEADERS = "Authorization, Content-Type, If-None-Match, Last-Event-ID";
    /** Response headers a page may read beyond the safelisted ones. */
    private static final String EXPOSED_HEADERS = "ETag, Retry-After, WWW-Authenticate";
    /** How long a browser may cache a preflight's answer. */
    private static final Duration MAX_AGE = Duration.ofMinutes(10);

    public CorsPolicy {
        origins = Set.copyOf(origins);
    }

    public static CorsPolicy none() {
        return new CorsPolicy(Set.of(), false);
    }

    /**
     * The origins listed in {@code variable}, comma-separated ({@code https://a.example,http://localhost:3000}), or
     * {@code *}; none when it is unset.
     */
    public static CorsPolicy from(Settings settings, String variable) {
        return settings.find(variable).map(value -> parse(variable, value)).orElse(none());
    }

    /** The origins in {@code value} as {@link #from} reads them; {@code variable} names the setting in errors. */
    public static CorsPolicy parse(String variable, String value) {
        List<String> listed = Arrays.stream(value.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
        if (listed.equals(List.of("*"))) return new CorsPolicy(Set.of(), true);
        return new CorsPolicy(listed.stream().map(origin -> origin(variable, origin)).collect(Collectors.toSet()), false);
    }

    /** An origin in the form browsers send it: scheme, host and a port only when it is not the scheme's default. */
    private static String origin(String variable, String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean bare = uri.getRawPath() == null || uri.getRawPath().isEmpty();
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare
                    || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
                throw new URISyntaxException(text, "not an origin");
            }
            int port = uri.getPort();
            boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(variable + " must be '*' or a comma-separated list of origins such as "
                    + "https://app.example.com, was " + Problem.quote(text));
        }
    }

    public boolean enabled() {
        return any || !origins.isEmpty();
    }

    boolean allows(String origin) {
        return origin != null && (any || origins.contains(origin));
    }

    /**
     * The answer to a preflight ({@code OPTIONS} with {@code Access-Control-Request-Method}) for a path whose routes
     * accept {@code methods}: 204 with what the page may send, or 403 when its origin is not allowed.
     */
    Response preflight(String origin, Collection<String> methods) {
        if (!allows(origin)) {
            return Router.problem(new ApiException(new Problem("https://readmark.io/problems/origin-not-allowed",
                    "Origin not allowed", 403, "this API does not accept calls from pages of this origin", "Origin")));
        }
        Map<String, String> headers = new LinkedHashMap<>(allowOrigin(origin));
        headers.put("Access-Control-Allow-Methods", String.join(", ", methods));
        headers.put("Access-Control-Allow-Headers", ALLOWED_HEADERS);
        headers.put("Access-Control-Max-Age", Long.toString(MAX_AGE.toSeconds()));
        return new Response(204, null, headers);
    }

    /** {@code response} with the headers that let a page of {@code origin} read it, when that origin is allowed. */
    Response decorate(Response response, String origin) {
        if (!enabled()) return response;
        Map<String, String> headers = new LinkedHashMap<>(response.headers());
        if (any) {
            // The same for every request, with an Origin or without: a cache may hand it to any page.
            headers.put("Access-Control-Allow-Origin", "*");
            headers.put("Access-Control-Expose-Headers", EXPOSED_HEADERS);
        } else if (allows(origin)) {
            headers.putAll(allowOrigin(origin));
            headers.put("Access-Control-Expose-Headers", EXPOSED_HEADERS);
        } else {
            headers.put("Vary", "Origin"); // a cache must not hand this answer to an allowed origin without the header
        }
        return new Response(response.status(), response.body(), headers);
    }

    private Map<String, String> allowOrigin(String origin) {
        // With a list, the answer names the one origin and so varies by Origin; with * it is the same for all.
        return any ? Map.of("Access-Control-Allow-Origin", "*")
                : Map.of("Access-Control-Allow-Origin", origin, "Vary", "Origin");
    }
}
