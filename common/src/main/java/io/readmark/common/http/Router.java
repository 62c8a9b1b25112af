package io.readmark.common.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Turns a request into a route's {@link Response}, whatever the transport. Never fails: bad input is answered with
 * its 4xx problem and anything unexpected is logged here and answered 500 without internals.
 */
final class Router {

    private static final Logger log = LoggerFactory.getLogger(Router.class);

    /** Headers a route reads; a request that repeats one is ambiguous (which of two tokens counts?) and refused. */
    private static final List<String> SINGLE_HEADERS = List.of("Authorization", "Content-Type", "Host");

    /** A request matched to its route (or already answered), to be run where the route may run. */
    record Call(boolean blocking, Supplier<CompletionStage<Response>> run) {
    }

    private final String name;
    private final List<Route> routes = new ArrayList<>();
    private RequestMetrics metrics;
    private CorsPolicy cors = CorsPolicy.none();

    Router(String name) {
        this.name = name;
    }

    void add(Route route) {
        routes.add(route);
    }

    void metrics(RequestMetrics metrics) {
        this.metrics = metrics;
    }

    void cors(CorsPolicy cors) {
        this.cors = cors;
    }

    List<Route> routes() {
        return List.copyOf(routes);
    }

    /**
     * Parses and matches the request; cheap, so it runs where the request arrived.
     *
     * @param headers     a header's first value, null when absent
     * @param headerCount how many times a header is present
     */
    Call prepare(String method, String rawTarget, Function<String, String> headers, ToIntFunction<String> headerCount,
                 byte[] body) {
        long started = System.nanoTime();
        String template = RequestMetrics.UNKNOWN_ROUTE;
        String origin = headers.apply("Origin");
        try {
            RequestTarget target = RequestTarget.parse(rawTarget);
            for (String header : SINGLE_HEADERS) {
                if (headerCount.applyAsInt(header) > 1) throw ApiException.badRequest(header, header + " must be sent once");
            }
            Route pathMatch = null;
            Set<String> pathMethods = new LinkedHashSet<>();
            for (Route route : routes) {
                Optional<Map<String, String>> variables = route.match(target.segments());
                if (variables.isEmpty()) continue;
                if (pathMatch == null) pathMatch = route;
                pathMethods.add(route.method());
                if (route.method().equals(method)) {
                    Request request = new Request(method, target, variables.get(), headers, body);
                    return new Call(route.blocking(),
                            () -> run(route, request, rawTarget, started).thenApply(answer -> cors.decorate(answer, origin)));
                }
            }
            if (pathMatch != null && method.equals("OPTIONS") && origin != null
                    && headers.apply("Access-Control-Request-Method") != null && cors.enabled()) {
                Response preflight = cors.preflight(origin, pathMethods);
                record(method, pathMatch.template(), preflight.status(), started);
                return new Call(false, () -> CompletableFuture.completedFuture(preflight));
            }
            // A 405 is still a request to that route; a 404 is tagged as unknown so paths cannot add series.
            if (pathMatch != null) {
                template = pathMatch.template();
                throw new ApiException(Problem.of(405, "Method not allowed", "this method is not supported here"));
            }
            throw new ApiException(Problem.of(404, "Not found", "no resource at this path"));
        } catch (ApiException e) {
            Response response = cors.decorate(problem(e), origin);
            record(method, template, response.status(), started);
            return new Call(false, () -> CompletableFuture.completedFuture(response));
        }
    }

    private CompletionStage<Response> run(Route route, Request request, String rawTarget, long started) {
        CompletionStage<Response> answer;
        try {
            answer = route.handler().handle(request);
        } catch (Exception e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.handle((response, failure) -> {
            Response answered = failure == null ? response : failed(request.method(), rawTarget, failure);
            record(request.method(), route.template(), answered.status(), started);
            return answered;
        });
    }

    private Response failed(String method, String rawTarget, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof ApiException e) return problem(e);
        // The path only: a query may carry a token (access_token) and has no place in a log.
        int query = rawTarget.indexOf('?');
        log.error("{}: {} {} failed", name, method, Problem.quote(query < 0 ? rawTarget : rawTarget.substring(0, query)), cause);
        return problem(new ApiException(Problem.of(500, "Internal error", "the request could not be completed")));
    }

    /** Counts a request the transport refused before it reached routing (too large, malformed, too slow). */
    void record(String method, String template, int status, long startedNanos) {
        if (metrics != null) metrics.record(method, template, status, System.nanoTime() - startedNanos);
    }

    static Response problem(ApiException e) {
        Response response = new Response(e.problem().status(), e.problem());
        for (Map.Entry<String, String> header : e.headers().entrySet()) {
            response = response.withHeader(header.getKey(), header.getValue());
        }
        return response;
    }
}
