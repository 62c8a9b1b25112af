package io.readmark.common.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;

/**
 * A JSON HTTP/1.1 server: routes registered by method and path template, served on Netty within {@link HttpLimits},
 * one virtual thread per request. Every failure becomes a problem+json answer: routes throw {@link ApiException};
 * anything unexpected is logged and answered 500 without internals; malformed HTTP gets a fixed 4xx.
 */
public final class JsonHttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JsonHttpServer.class);
    /** What {@link PrometheusMeterRegistry#scrape()} writes: the Prometheus text exposition format. */
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final String name;
    private final Router router;
    private HttpLimits limits = HttpLimits.defaults();
    private MeterRegistry registry;
    private EventLoopGroup eventLoops;
    private NettyTransport transport;

    public JsonHttpServer(String name) {
        this.name = name;
        this.router = new Router(name);
    }

    public JsonHttpServer route(String method, String template, Route.Handler handler) {
        router.add(Route.of(method, template, handler));
        return this;
    }

    /** A route that never blocks; see {@link Route}. */
    public JsonHttpServer asyncRoute(String method, String template, Route.AsyncHandler handler) {
        router.add(Route.async(method, template, handler));
        return this;
    }

    /** Lets pages of the origins {@code cors} allows call this server's routes from a browser. */
    public JsonHttpServer cors(CorsPolicy cors) {
        router.cors(cors);
        return this;
    }

    public JsonHttpServer limits(HttpLimits limits) {
        this.limits = limits;
        return this;
    }

    /**
     * Serves connections on {@code eventLoops} (NIO) instead of loops of its own, so that other channels on them (a
     * Redis connection, say) can answer a request on the thread that serves its connection. The caller shuts them
     * down, after {@link #close()}. Call before {@link #start}.
     */
    public JsonHttpServer eventLoops(EventLoopGroup eventLoops) {
        this.eventLoops = eventLoops;
        return this;
    }

    /**
     * Times every request in {@code registry} ({@code http.server.requests}) and counts connections and what the
     * limits refused. Call before {@link #start}.
     */
    public JsonHttpServer measuredBy(MeterRegistry registry) {
        this.registry = registry;
        router.metrics(new RequestMetrics(registry));
        return this;
    }

    /** Serves {@code registry}'s scrape at {@code GET /metrics}: for the management port only. */
    public JsonHttpServer metricsRoute(PrometheusMeterRegistry registry) {
        return route("GET", "/metrics", request -> Response.text(PROMETHEUS_TEXT, registry.scrape()));
    }

    /**
     * A service's management server: {@code /health/live}, {@code /health/ready} and {@code /metrics}, for probes
     * and scrapers, on its own port so that the API port exposes none of it.
     */
    public static JsonHttpServer management(String service, PrometheusMeterRegistry registry, Route.Handler live,
                                            Route.Handler ready) {
        return new JsonHttpServer(service + "-management")
                .route("GET", "/health/live", live)
                .route("GET", "/health/ready", ready)
                .metricsRoute(registry);
    }

    public JsonHttpServer start(String host, int port) throws IOException {
        try {
            transport = new NettyTransport(name, host, port, limits, router, registry, eventLoops);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(name + ": interrupted while binding " + host + ":" + port, e);
        } catch (Exception e) {
            // Netty rethrows a bind failure (an IOException) undeclared.
            if (e instanceof IOException io) throw io;
            throw e;
        }
        log.atInfo().addKeyValue("server", name).addKeyValue("host", host).addKeyValue("port", port()).log("listening");
        return this;
    }

    /** Every route as {@code "GET /v1/users/{userId}/unread"}, in registration order. */
    public List<String> routes() {
        return router.routes().stream().map(route -> route.method() + " " + route.template()).toList();
    }

    public int port() {
        return transport.port();
    }

    @Override
    public void close() {
        if (transport != null) transport.close();
    }
}
