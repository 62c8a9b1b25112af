package io.readmark.common.http;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** One HTTP request as a route sees it: path variables, query parameters, headers and the body. */
public final class Request {

    private final String method;
    private final RequestTarget target;
    private final Map<String, String> pathVariables;
    private final Function<String, String> headers;
    private final byte[] body;

    Request(String method, RequestTarget target, Map<String, String> pathVariables, Function<String, String> headers,
            byte[] body) {
        this.method = method;
        this.target = target;
        this.pathVariables = pathVariables;
        this.headers = headers;
        this.body = body;
    }

    public String method() {
        return method;
    }

    public String pathVariable(String name) {
        return pathVariables.get(name);
    }

    public Optional<String> query(String name) {
        return Optional.ofNullable(target.query().get(name));
    }

    /** A header's value; the server has already refused requests that repeat a header routes rely on. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.apply(name));
    }

    /** The body, refused with 413 when it is larger than {@code maxBytes}; the server bounded it while reading. */
    public byte[] body(int maxBytes) {
        if (body.length > maxBytes) {
            throw new ApiException(Problem.of(413, "Payload too large", "the body exceeds " + maxBytes + " bytes"));
        }
        return body;
    }

    /** A path or query value that must be a positive 64-bit id; 400 naming the parameter otherwise. */
    public static long positiveId(String name, String value) {
        return CanonicalNumbers.positiveId(value).orElseThrow(() ->
                ApiException.badRequest(name, name + " must be a positive 64-bit integer, was " + Problem.quote(value)));
    }

    /** A query value that must be an integer in {@code 1..max}, in ASCII digits without sign or leading zeros. */
    public static int boundedInt(String name, String value, int max) {
        long parsed = CanonicalNumbers.positiveId(value).orElse(-1L);
        if (parsed >= 1 && parsed <= max) return (int) parsed;
        throw ApiException.badRequest(name, name + " must be an integer 1.." + max + ", was " + Problem.quote(value));
    }
}
