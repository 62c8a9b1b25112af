package io.readmark.common.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What one client address can hold of a server, over raw sockets from two loopback addresses: connections past its
 * share are closed at once, connections that never send are closed after the first-byte deadline, and neither cuts a
 * slow but live client or an open event stream.
 */
class ConnectionLimitsTest {

    private static final String ATTACKER = "127.0.0.1";
    private static final String OTHER_CLIENT = "127.0.0.2";
    /** The producer API's cap, the smaller of the two APIs'. */
    private static final int MAX_CONNECTIONS = 256;
    private static final Duration FIRST_BYTE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final String PING = "GET /v1/ping HTTP/1.1\r\nHost: x\r\n\r\n";

    private static final MeterRegistry meters = new SimpleMeterRegistry();
    /** The limit per client alone: no deadline frees a silent connection during a test. */
    @AutoClose
    private static JsonHttpServer capped;
    /** The deadlines: a first byte within half a second, the default idle timeout after a request. */
    @AutoClose
    private static JsonHttpServer timed;

    @BeforeAll
    static void start() throws IOException {
        HttpLimits producerLimits = HttpLimits.defaults().withMaxConnections(MAX_CONNECTIONS);
        capped = server("capped", producerLimits.withFirstByteTimeout(Duration.ofMinutes(5))
                .withTimeouts(Duration.ofMinutes(5), Duration.ofMinutes(5)));
        timed = server("timed", producerLimits.withFirstByteTimeout(FIRST_BYTE_TIMEOUT)
                .withTimeouts(REQUEST_TIMEOUT, HttpLimits.defaults().idleTimeout()));
    }

    private static JsonHttpServer server(String name, HttpLimits limits) throws IOException {
        return new JsonHttpServer(name).limits(limits).measuredBy(meters)
                .route("GET", "/v1/ping", request -> Response.ok(Map.of("pong", true)))
                .route("GET", "/v1/events", request -> Response.events(sink ->
                        sink.send(new ServerSentEvent("1", "count", "n=1"))))
                .start("127.0.0.1", 0);
    }

    @Test
    void oneClientsSilentSocketsPastTheServersCapLeaveAnotherClientServed() throws IOException {
        int perClient = HttpLimits.shareOfOneClient(MAX_CONNECTIONS);
        List<RawHttp> silent = new ArrayList<>();
        try {
            // Given one address opening more silent connections than the server has
            for (int i = 0; i < MAX_CONNECTIONS + 50; i++) silent.add(new RawHttp(ATTACKER, capped.port()));

            // Then another address is still served
            try (RawHttp other = new RawHttp(OTHER_CLIENT, capped.port())) {
                other.send(PING);
                assertThat(other.read().status()).isEqualTo(200);
            }
            // And the attacker got its share: the connections past it were closed at once and counted
            assertThat(silent.getLast().closedByServer()).as("a connection past the client's share").isTrue();
            await().untilAsserted(() -> assertThat(refused("capped", HttpLimits.MAX_CONNECTIONS_PER_CLIENT))
                    .isEqualTo(MAX_CONNECTIONS + 50 - perClient));
            assertThat(refused("capped", HttpLimits.MAX_CONNECTIONS)).isZero();
            RawHttp first = silent.getFirst();
            first.send(PING);
            assertThat(first.read().status()).as("a connection within the share is served").isEqualTo(200);
        } finally {
            for (RawHttp http : silent) http.close();
        }
        // And once its connections are closed, the attacker's address is served again
        await().ignoreExceptions().untilAsserted(() ->
                assertThat(RawHttp.exchange(capped.port(), PING).status()).isEqualTo(200));
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAfterTheFirstByteDeadline() throws IOException {
        double silentBefore = meters.get("http.server.connections.silent").tag("server", "timed").counter().count();
        try (RawHttp http = new RawHttp(timed.port())) {
            long opened = System.nanoTime();

            assertThat(http.closedByServer()).isTrue();

            assertThat(Duration.ofNanos(System.nanoTime() - opened)).as("closed by the first-byte deadline, not the idle timeout")
                    .isBetween(FIRST_BYTE_TIMEOUT.minusMillis(50), FIRST_BYTE_TIMEOUT.multipliedBy(8));
        }
        await().untilAsserted(() -> assertThat(meters.get("http.server.connections.silent").tag("server", "timed")
                .counter().count()).isEqualTo(silentBefore + 1));
    }

    @Test
    void aClientSendingSlowlyButWithinTheRequestTimeoutIsServed() throws Exception {
        try (RawHttp http = new RawHttp(timed.port())) {
            byte[] request = PING.getBytes(StandardCharsets.US_ASCII);
            long pace = FIRST_BYTE_TIMEOUT.multipliedBy(3).toMillis() / request.length;
            // A byte at a time over three first-byte deadlines: the pace of a slow client, not a wait on the server
            for (byte b : request) {
                http.send(new byte[]{b});
                Thread.sleep(pace);
            }

            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void aKeptAliveConnectionMayWaitLongerThanTheFirstByteDeadlineForItsNextRequest() throws IOException {
        try (RawHttp http = new RawHttp(timed.port())) {
            http.send(PING);
            assertThat(http.read().status()).isEqualTo(200);

            assertThat(http.closedByServerWithin(FIRST_BYTE_TIMEOUT.multipliedBy(3))).as("closed while idle").isFalse();
            http.send(PING);
            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void anOpenEventStreamOutlivesTheFirstByteDeadline() throws IOException {
        try (RawHttp http = new RawHttp(timed.port())) {
            http.send("GET /v1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
            assertThat(http.readHead()).startsWith("HTTP/1.1 200");

            assertThat(http.closedByServerWithin(FIRST_BYTE_TIMEOUT.multipliedBy(3))).as("stream closed").isFalse();
        }
    }

    private static double refused(String server, String limit) {
        return meters.get("http.server.connections.refused").tags("server", server, "limit", limit).counter().count();
    }
}
