package io.readmark.common.http;

import java.util.Map;

/** Thrown by a route to answer with a problem instead of a result; carries no stack trace to the client. */
public class ApiException extends RuntimeException {

    private final transient Problem problem;
    private final transient Map<String, String> headers;

    public ApiException(Problem problem) {
        this(problem, Map.of());
    }

    /** A problem answered with extra response headers, such as {@code Retry-After} on a 503. */
    public ApiException(Problem problem, Map<String, String> headers) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
        this.headers = Map.copyOf(headers);
    }

    /** 503 with {@code Retry-After}: a dependency is down and the client should come back shortly. */
    public static ApiException unavailable(String title, String detail, int retryAfterSeconds) {
        return new ApiException(Problem.of(503, title, detail), Map.of("Retry-After", Integer.toString(retryAfterSeconds)));
    }

    public static ApiException badRequest(String field, String detail) {
        return new ApiException(Problem.badRequest(field, detail));
    }

    public Problem problem() {
        return problem;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
