package io.readmark.common.http;

import io.readmark.common.config.Settings;

import java.time.Duration;

/**
 * What one HTTP server lets a client hold: connections, time to send a request, bytes of request line, headers and
 * body. Each bound is what keeps unauthenticated clients from exhausting memory, threads or sockets; a request beyond
 * one is answered with a fixed problem (408, 413, 414, 431) and its connection closed.
 *
 * @param maxConnections      open connections at once; more are closed as soon as they are accepted
 * @param requestTimeout      from a request's first byte to its last: slow senders are answered 408 and closed
 * @param idleTimeout         how long a kept-alive connection may wait for its next request (longer than a load
 *                            balancer's, which must be the side that closes idle connections)
 * @param maxRequestLineBytes method, target and version (414 beyond)
 * @param maxHeaderBytes      all header lines together (431 beyond)
 * @param maxHeaderCount      header lines (431 beyond)
 * @param maxBodyBytes        the largest body any route reads, enforced while it arrives (413 beyond); routes may
 *                            allow less
 */
public record HttpLimits(int maxConnections, Duration requestTimeout, Duration idleTimeout, int maxRequestLineBytes,
                         int maxHeaderBytes, int maxHeaderCount, int maxBodyBytes) {

    public static final String MAX_CONNECTIONS = "HTTP_MAX_CONNECTIONS";
    public static final String REQUEST_TIMEOUT = "HTTP_REQUEST_TIMEOUT";
    public static final String IDLE_TIMEOUT = "HTTP_IDLE_TIMEOUT";
    public static final String MAX_HEADER_BYTES = "HTTP_MAX_HEADER_BYTES";

    /** Bodies of routes that read none (GETs) are refused beyond this. */
    public static final int NO_BODY = 8 * 1024;

    public HttpLimits {
        require(maxConnections > 0, MAX_CONNECTIONS, "a positive integer", maxConnections);
        require(requestTimeout != null && requestTimeout.isPositive(), REQUEST_TIMEOUT, "a positive duration", requestTimeout);
        require(idleTimeout != null && idleTimeout.isPositive(), IDLE_TIMEOUT, "a positive duration", idleTimeout);
        require(maxRequestLineBytes >= 256, "maxRequestLineBytes", "at least 256", maxRequestLineBytes);
        require(maxHeaderBytes >= 1024 && maxHeaderBytes <= 1024 * 1024, MAX_HEADER_BYTES, "1024..1048576", maxHeaderBytes);
        require(maxHeaderCount > 0, "maxHeaderCount", "a positive integer", maxHeaderCount);
        require(maxBodyBytes >= 0, "maxBodyBytes", "not negative", maxBodyBytes);
    }

    public static HttpLimits defaults() {
        return new HttpLimits(4_096, Duration.ofSeconds(10), Duration.ofSeconds(75), 4_096, 8_192, 64, NO_BODY);
    }

    /** The defaults, overridden by the {@code HTTP_*} settings. */
    public static HttpLimits from(Settings settings) {
        return from(settings, defaults());
    }

    /** {@code defaults}, overridden by the {@code HTTP_*} settings. */
    public static HttpLimits from(Settings settings, HttpLimits defaults) {
        return new HttpLimits(
                settings.integer(MAX_CONNECTIONS, defaults.maxConnections()),
                settings.duration(REQUEST_TIMEOUT, defaults.requestTimeout()),
                settings.duration(IDLE_TIMEOUT, defaults.idleTimeout()),
                defaults.maxRequestLineBytes(),
                settings.integer(MAX_HEADER_BYTES, defaults.maxHeaderBytes()),
                defaults.maxHeaderCount(),
                defaults.maxBodyBytes());
    }

    /** These limits with room for bodies of up to {@code bytes} (a route that reads a body asks for it). */
    public HttpLimits withMaxBody(int bytes) {
        return new HttpLimits(maxConnections, requestTimeout, idleTimeout, maxRequestLineBytes, maxHeaderBytes,
                maxHeaderCount, Math.max(maxBodyBytes, bytes));
    }

    public HttpLimits withTimeouts(Duration request, Duration idle) {
        return new HttpLimits(maxConnections, request, idle, maxRequestLineBytes, maxHeaderBytes, maxHeaderCount, maxBodyBytes);
    }

    public HttpLimits withMaxConnections(int connections) {
        return new HttpLimits(connections, requestTimeout, idleTimeout, maxRequestLineBytes, maxHeaderBytes, maxHeaderCount, maxBodyBytes);
    }

    private static void require(boolean valid, String name, String expected, Object value) {
        if (!valid) throw new IllegalArgumentException(name + " must be " + expected + ", was '" + value + "'");
    }
}
