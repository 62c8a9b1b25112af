package io.readmark.common.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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

    /** One timer's tags; the set is bounded by routes × methods × statuses. */
    private record Series(String method, String route, int status) {
    }

    private final MeterRegistry registry;
    // Looked up per request: building and registering a Timer each time costs tag merging and a registry lookup.
    private final ConcurrentMap<Series, Timer> timers = new ConcurrentHashMap<>();

    RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void record(String method, String route, int status, long nanos) {
        Series series = new Series(METHODS.contains(method) ? method : "OTHER", route, status);
        timers.computeIfAbsent(series, this::register).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer register(Series series) {
        return Timer.builder("http.server.requests")
                .description("HTTP requests answered, by route template and status")
                .tag("method", series.method())
                .tag("route", series.route())
                .tag("status", Integer.toString(series.status()))
                .publishPercentileHistogram()
                .register(registry);
    }
}
