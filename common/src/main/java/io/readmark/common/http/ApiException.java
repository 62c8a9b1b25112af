package io.readmark.common.http;

/** Thrown by a route to answer with a problem instead of a result; carries no stack trace to the client. */
public class ApiException extends RuntimeException {

    private final transient Problem problem;

    public ApiException(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    public static ApiException badRequest(String field, String detail) {
        return new ApiException(Problem.badRequest(field, detail));
    }

    public Problem problem() {
        return problem;
    }
}
