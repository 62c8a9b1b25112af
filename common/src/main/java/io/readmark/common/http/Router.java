package io.readmark.common.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Turns a request into a route's {@link Response}, whatever the transport. Never throws: bad input is answered with
 * its 4xx problem and anything unexpected is logged here and answered 500 without internals.
 */
final class Router {

    private static final Logger log = LoggerFactory.getLogger(Router.class);

    /** Headers a route reads; a request that repeats one is ambiguous (which of two tokens counts?) and refused. */
    private static final List<String> SINGLE_HEADERS = List.of("Authorization", "Content-Type", "Host");

    private final String name;
    private final List<Route> routes = new ArrayList<>();
    private RequestMetrics metrics;

    Router(String name) {
        this.name = name;
    }

    void add(Route route) {
        routes.add(route);
    }

    void metrics(RequestMetrics metrics) {
        this.metrics = metrics;
    }

    List<Route> routes() {
        return List.copyOf(routes);
    }

    /**
     * @param headers     a header's first value, null when absent
     * @param headerCount how many times a header is present
     */
    Response dispatch(String method, String rawTarget, Function<String, String> headers,
                      ToIntFunction<String> headerCount, byte[] body) {
        long started = System.nanoTime();
        String template = RequestMetrics.UNKNOWN_ROUTE;
        Response response;
        try {
            RequestTarget target = RequestTarget.parse(rawTarget);
            for (String header : SINGLE_HEADERS) {
                if (headerCount.applyAsInt(header) > 1) throw ApiException.badRequest(header, header + " must be sent once");
            }
            Route pathMatch = null;
            for (Route route : routes) {
                Optional<Map<String, String>> variables = route.match(target.segments());
                if (variables.isEmpty()) continue;
                if (pathMatch == null) pathMatch = route;
                if (route.method().equals(method)) {
                    template = route.template();
                    return respond(route, new Request(method, target, variables.get(), headers, body), started);
                }
            }
            // A 405 is still a request to that route; a 404 is tagged as unknown so paths cannot add series.
            if (pathMatch != null) {
                template = pathMatch.template();
                throw new ApiException(Problem.of(405, "Method not allowed", "this method is not supported here"));
            }
            throw new ApiException(Problem.of(404, "Not found", "no resource at this path"));
        } catch (ApiException e) {
            response = problem(e);
        } catch (Exception e) {
            log.error("{}: {} {} failed", name, method, Problem.quote(rawTarget), e);
            response = problem(new ApiException(Problem.of(500, "Internal error", "the request could not be completed")));
        }
        record(method, template, response.status(), started);
        return response;
    }

    private Response respond(Route route, Request request, long started) throws Exception {
        Response response;
        try {
            response = route.handler().handle(request);
        } catch (ApiException e) {
            response = problem(e);
        }
        record(request.method(), route.template(), response.status(), started);
        return response;
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
