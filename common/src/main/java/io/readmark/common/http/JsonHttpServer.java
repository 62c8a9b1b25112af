package io.readmark.common.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
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

    private final String name;
    private final List<Route> routes = new ArrayList<>();
    private HttpServer server;
    private ExecutorService executor;

    public JsonHttpServer(String name) {
        this.name = name;
    }

    public JsonHttpServer route(String method, String template, Route.Handler handler) {
        routes.add(Route.of(method, template, handler));
        return this;
    }

    public JsonHttpServer start(String host, int port) throws IOException {
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server = HttpServer.create(new InetSocketAddress(host, port), 1024);
        server.setExecutor(executor);
        server.createContext("/", this::dispatch);
        server.start();
        log.info("{} listening on http://{}:{}", name, host, port());
        return this;
    }

    /** Every route as {@code "GET /v1/users/{userId}/unread"}, in registration order. */
    public List<String> routes() {
        return routes.stream().map(route -> route.method() + " /" + String.join("/", route.segments())).toList();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void dispatch(HttpExchange exchange) throws IOException {
        try (exchange) {
            try {
                Response response = handle(exchange);
                response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
                HttpResponses.json(exchange, response.status(), response.body());
            } catch (ApiException e) {
                e.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
                HttpResponses.problem(exchange, e.problem());
            } catch (Exception e) {
                log.error("{}: {} {} failed", name, exchange.getRequestMethod(), exchange.getRequestURI(), e);
                HttpResponses.problem(exchange, Problem.of(500, "Internal error", "the request could not be completed"));
            }
        }
    }

    private Response handle(HttpExchange exchange) throws Exception {
        String path = exchange.getRequestURI().getPath();
        boolean pathKnown = false;
        for (Route route : routes) {
            Optional<Map<String, String>> variables = route.match(path);
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
