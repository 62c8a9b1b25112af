package io.readmark.common.http;

import io.readmark.common.config.Settings;

import java.time.Duration;

/**
 * What one HTTP server lets a client hold: connections, time to send a request, bytes of request line, headers and
 * body. Each bound is what keeps unauthenticated clients from exhausting memory, threads or sockets; a request beyond
 * one is answered with a fixed problem (408, 413, 414, 431) and its connection closed.
 *
 * @param maxConnections          open connections at once other than event streams (their routes bound them); more are
 *                                closed as soon as they are accepted
 * @param maxConnectionsPerClient open connections of one client address (an IPv6 client: its /64) at once, more are
 *                                closed as soon as they are accepted; 0 for no limit (behind a load balancer, whose
 *                                address every client shares)
 * @param firstByteTimeout        how long a new connection may wait before its first request's first byte
 * @param requestTimeout          from a request's first byte to its last: slow senders are answered 408 and closed
 * @param idleTimeout             how long a kept-alive connection may wait for its next request (longer than a load
 *                                balancer's, which must be the side that closes idle connections)
 * @param maxRequestLineBytes     method, target and version (414 beyond)
 * @param maxHeaderBytes          all header lines together (431 beyond)
 * @param maxHeaderCount          header lines (431 beyond)
 * @param maxBodyBytes            the largest body any route reads, enforced while it arrives (413 beyond); routes may
 *                                allow less
 */
public record HttpLimits(int maxConnections, int maxConnectionsPerClient, Duration firstByteTimeout,
                         Duration requestTimeout, Duration idleTimeout, int maxRequestLineBytes, int maxHeaderBytes,
                         int maxHeaderCount, int maxBodyBytes) {

    public static final String MAX_CONNECTIONS = "HTTP_MAX_CONNECTIONS";
    public static final String MAX_CONNECTIONS_PER_CLIENT = "HTTP_MAX_CONNECTIONS_PER_CLIENT";
    public static final String FIRST_BYTE_TIMEOUT = "HTTP_FIRST_BYTE_TIMEOUT";
    public static final String REQUEST_TIMEOUT = "HTTP_REQUEST_TIMEOUT";
    public static final String IDLE_TIMEOUT = "HTTP_IDLE_TIMEOUT";
    public static final String MAX_HEADER_BYTES = "HTTP_MAX_HEADER_BYTES";

    /** Bodies of routes that read none (GETs) are refused beyond this. */
    public static final int NO_BODY = 8 * 1024;

    public HttpLimits {
        require(maxConnections > 0, MAX_CONNECTIONS, "a positive integer", maxConnections);
        require(maxConnectionsPerClient >= 0, MAX_CONNECTIONS_PER_CLIENT, "0 (no limit) or a positive integer", maxConnectionsPerClient);
        require(firstByteTimeout != null && firstByteTimeout.isPositive(), FIRST_BYTE_TIMEOUT, "a positive duration", firstByteTimeout);
        require(requestTimeout != null && requestTimeout.isPositive(), REQUEST_TIMEOUT, "a positive duration", requestTimeout);
        require(idleTimeout != null && idleTimeout.isPositive(), IDLE_TIMEOUT, "a positive duration", idleTimeout);
        require(maxRequestLineBytes >= 256, "maxRequestLineBytes", "at least 256", maxRequestLineBytes);
        require(maxHeaderBytes >= 1024 && maxHeaderBytes <= 1024 * 1024, MAX_HEADER_BYTES, "1024..1048576", maxHeaderBytes);
        require(maxHeaderCount > 0, "maxHeaderCount", "a positive integer", maxHeaderCount);
        require(maxBodyBytes >= 0, "maxBodyBytes", "not negative", maxBodyBytes);
    }

    public static HttpLimits defaults() {
        return new HttpLimits(4_096, shareOfOneClient(4_096), Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofSeconds(75), 4_096, 8_192, 64, NO_BODY);
    }

    /** The defaults, overridden by the {@code HTTP_*} settings. */
    public static HttpLimits from(Settings settings) {
        return from(settings, defaults());
    }

    /**
     * {@code defaults}, overridden by the {@code HTTP_*} settings. Unless set, the limit per client follows the
     * connections (a quarter of them) when the connections were set, and the defaults' limit otherwise.
     */
    public static HttpLimits from(Settings settings, HttpLimits defaults) {
        int connections = settings.integer(MAX_CONNECTIONS, defaults.maxConnections());
        return new HttpLimits(
                connections,
                settings.integer(MAX_CONNECTIONS_PER_CLIENT, connections == defaults.maxConnections()
                        ? defaults.maxConnectionsPerClient() : shareOfOneClient(connections)),
                settings.duration(FIRST_BYTE_TIMEOUT, defaults.firstByteTimeout()),
                settings.duration(REQUEST_TIMEOUT, defaults.requestTimeout()),
                settings.duration(IDLE_TIMEOUT, defaults.idleTimeout()),
                defaults.maxRequestLineBytes(),
                settings.integer(MAX_HEADER_BYTES, defaults.maxHeaderBytes()),
                defaults.maxHeaderCount(),
                defaults.maxBodyBytes());
    }

    /**
     * The default limit per client: a quarter of the connections. Room for a reverse proxy's or a NAT's pool of
     * connections, yet at least four addresses are needed to take every connection.
     */
    static int shareOfOneClient(int maxConnections) {
        return Math.max(1, maxConnections / 4);
    }

    /** These limits with room for bodies of up to {@code bytes} (a route that reads a body asks for it). */
    public HttpLimits withMaxBody(int bytes) {
        return new HttpLimits(maxConnections, maxConnectionsPerClient, firstByteTimeout, requestTimeout, idleTimeout,
                maxRequestLineBytes, maxHeaderBytes, maxHeaderCount, Math.max(maxBodyBytes, bytes));
    }

    public HttpLimits withTimeouts(Duration request, Duration idle) {
        return new HttpLimits(maxConnections, maxConnectionsPerClient, firstByteTimeout, request, idle,
                maxRequestLineBytes, maxHeaderBytes, maxHeaderCount, maxBodyBytes);
    }

    public HttpLimits withFirstByteTimeout(Duration firstByte) {
        return new HttpLimits(maxConnections, maxConnectionsPerClient, firstByte, requestTimeout, idleTimeout,
                maxRequestLineBytes, maxHeaderBytes, maxHeaderCount, maxBodyBytes);
    }

    /** These limits with {@code connections} at most, a quarter of them per client. */
    public HttpLimits withMaxConnections(int connections) {
        return withMaxConnections(connections, shareOfOneClient(connections));
    }

    /** @param perClient 0 for no limit per client */
    public HttpLimits withMaxConnections(int connections, int perClient) {
        return new HttpLimits(connections, perClient, firstByteTimeout, requestTimeout, idleTimeout,
                maxRequestLineBytes, maxHeaderBytes, maxHeaderCount, maxBodyBytes);
    }

    private static void require(boolean valid, String name, String expected, Object value) {
        if (!valid) throw new IllegalArgumentException(name + " must be " + expected + ", was '" + value + "'");
    }
}
