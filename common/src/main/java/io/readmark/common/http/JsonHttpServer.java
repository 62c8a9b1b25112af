package io.readmark.common.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small JSON HTTP server on the JDK's own server, one virtual thread per request.
 * Every failure becomes a problem+json answer: routes throw {@link ApiException}; anything unexpected is logged
 * here and answered 500 without internals.
 */
public final class JsonHttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JsonHttpServer.class);
    /** What {@link PrometheusMeterRegistry#scrape()} writes: the Prometheus text exposition format. */
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final String name;
    private final List<Route> routes = new ArrayList<>();
    private RequestMetrics requestMetrics;
    private HttpServer server;
    private ExecutorService executor;

    public JsonHttpServer(String name) {
        this.name = name;
    }

    public JsonHttpServer route(String method, String template, Route.Handler handler) {
        routes.add(Route.of(method, template, handler));
        return this;
    }

    /**
     * Times every request in {@code registry} ({@code http.server.requests}) and serves the registry's scrape at
     * {@code GET /metrics}. Call before {@link #start}.
     */
    public JsonHttpServer metrics(PrometheusMeterRegistry registry) {
        requestMetrics = new RequestMetrics(registry);
        return route("GET", "/metrics", request -> Response.text(PROMETHEUS_TEXT, registry.scrape()));
    }

    public JsonHttpServer start(String host, int port) throws IOException {
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server = HttpServer.create(new InetSocketAddress(host, port), 1024);
        server.setExecutor(executor);
        server.createContext("/", this::dispatch);
        server.start();
        log.atInfo().addKeyValue("server", name).addKeyValue("host", host).addKeyValue("port", port()).log("listening");
        return this;
    }

    /** Every route as {@code "GET /v1/users/{userId}/unread"}, in registration order. */
    public List<String> routes() {
        return routes.stream().map(route -> route.method() + " " + route.template()).toList();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void dispatch(HttpExchange exchange) throws IOException {
        long started = System.nanoTime();
        int status = 500;
        List<String> segments = Route.split(exchange.getRequestURI().getPath());
        try (exchange) {
            try {
                Response response = handle(exchange, segments);
                status = response.status();
                response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
                HttpResponses.answer(exchange, response);
            } catch (ApiException e) {
                status = e.problem().status();
                e.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
                HttpResponses.problem(exchange, e.problem());
            } catch (Exception e) {
                log.error("{}: {} {} failed", name, exchange.getRequestMethod(), exchange.getRequestURI(), e);
                HttpResponses.problem(exchange, Problem.of(500, "Internal error", "the request could not be completed"));
            }
        } finally {
            if (requestMetrics != null) {
                requestMetrics.record(exchange.getRequestMethod(), routeTemplate(segments), status, System.nanoTime() - started);
            }
        }
    }

    /** The template of the route whose path fits, whatever its method; a 405 is still a request to that route. */
    private String routeTemplate(List<String> segments) {
        return routes.stream().filter(route -> route.match(segments).isPresent()).findFirst()
                .map(Route::template).orElse(RequestMetrics.UNKNOWN_ROUTE);
    }

    private Response handle(HttpExchange exchange, List<String> segments) throws Exception {
        String path = exchange.getRequestURI().getPath();
        boolean pathKnown = false;
        for (Route route : routes) {
            Optional<Map<String, String>> variables = route.match(segments);
            if (variables.isEmpty()) continue;
            pathKnown = true;
            if (route.method().equals(exchange.getRequestMethod())) {
                return route.handler().handle(new Request(exchange, variables.get()));
            }
        }
        if (pathKnown) {
            throw new ApiException(Problem.of(405, "Method not allowed", exchange.getRequestMethod() + " is not supported on " + path));
        }
        throw new ApiException(Problem.of(404, "Not found", "no resource at " + path));
    }

    @Override
    public void close() {
        if (server != null) server.stop(0);
        if (executor != null) executor.close();
    }
}
