package io.readmark.common.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Times every answered request as {@code http.server.requests}, tagged with the method, the route's template (never
 * the raw path, whose ids would make a series per user) and the status, with histogram buckets for latency quantiles.
 */
final class RequestMetrics {

    /** The route tag of a request that matched no route. */
    static final String UNKNOWN_ROUTE = "UNKNOWN";

    // Any token is a valid method to the JDK server; unknown ones share one tag value so clients cannot add series.
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final MeterRegistry registry;

    RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void record(String method, String route, int status, long nanos) {
        Timer.builder("http.server.requests")
                .description("HTTP requests answered, by route template and status")
                .tag("method", METHODS.contains(method) ? method : "OTHER")
                .tag("route", route)
                .tag("status", Integer.toString(status))
                .publishPercentileHistogram()
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }
}
