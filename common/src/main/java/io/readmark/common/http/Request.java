package io.readmark.common.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;

/** One HTTP request as a route sees it: path variables, query parameters and a size-limited body. */
public final class Request {

    private static final Pattern CANONICAL_ID = Pattern.compile("[1-9][0-9]{0,18}");

    private final HttpExchange exchange;
    private final Map<String, String> pathVariables;
    private final Map<String, String> query;

    Request(HttpExchange exchange, Map<String, String> pathVariables) {
        this.exchange = exchange;
        this.pathVariables = pathVariables;
        this.query = parseQuery(exchange.getRequestURI().getRawQuery());
    }

    public String pathVariable(String name) {
        return pathVariables.get(name);
    }

    public Optional<String> query(String name) {
        return Optional.ofNullable(query.get(name));
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(exchange.getRequestHeaders().getFirst(name));
    }

    /** The body, refused with 413 when it is larger than {@code maxBytes}. */
    public byte[] body(int maxBytes) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(maxBytes + 1);
            if (body.length > maxBytes) {
                throw new ApiException(Problem.of(413, "Payload too large", "the body exceeds " + maxBytes + " bytes"));
            }
            return body;
        }
    }

    /** A path or query value that must be a positive 64-bit id; 400 naming the parameter otherwise. */
    public static long positiveId(String name, String value) {
        // Only the canonical decimal form, as in the event schemas: no sign, no leading zeros, nothing Long would forgive.
        if (value != null && CANONICAL_ID.matcher(value).matches()) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                // beyond Long.MAX_VALUE: the uniform message below
            }
        }
        throw ApiException.badRequest(name, name + " must be a positive 64-bit integer, was '" + value + "'");
    }

    private static Map<String, String> parseQuery(String rawQuery) {
        Map<String, String> params = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) return params;
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                params.putIfAbsent(URLDecoder.decode(key, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(key, "query parameter is not valid URL encoding");
            }
        }
        return params;
    }
}
