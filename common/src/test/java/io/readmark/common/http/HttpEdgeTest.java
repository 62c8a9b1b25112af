package io.readmark.common.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The server's edge over raw sockets: its limits, its timeouts and its strict reading of request targets, each
 * answered with a fixed problem, never a 500 and never more than a short prefix of the input.
 */
class HttpEdgeTest {

    private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(500);
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(1);
    private static final int MAX_CONNECTIONS = 8;
    private static final CountDownLatch streamClosed = new CountDownLatch(1);
    /** What {@code GET /v1/held} signals on arrival and the answer it waits for. */
    private record HeldAnswer(CountDownLatch requested, CompletableFuture<Response> answer) {
    }

    private static final AtomicReference<HeldAnswer> heldAnswer = new AtomicReference<>();
    @AutoClose
    private static JsonHttpServer server;

    @BeforeAll
    static void start() throws IOException {
        HttpLimits limits = HttpLimits.defaults().withTimeouts(REQUEST_TIMEOUT, IDLE_TIMEOUT)
                .withMaxConnections(MAX_CONNECTIONS, 0); // one client here: ConnectionLimitsTest has the limit per client
        server = new JsonHttpServer("edge-test").limits(limits)
                .route("GET", "/v1/users/{userId}/unread", request -> Response.ok(Map.of(
                        "userId", Request.positiveId("userId", request.pathVariable("userId")),
                        "cap", request.query("cap").map(cap -> Request.boundedInt("cap", cap, 1000)).orElse(0))))
                .asyncRoute("GET", "/v1/held", request -> {
                    HeldAnswer held = heldAnswer.get();
                    held.requested().countDown();
                    return held.answer();
                })
                .route("POST", "/v1/echo", request -> Response.ok(Map.of("bytes", request.body(512).length)))
                .route("GET", "/v1/events", request -> Response.events(sink -> {
                    sink.onClose(streamClosed::countDown);
                    for (int i = 1; i <= 3; i++) sink.send(new ServerSentEvent(Integer.toString(i), "count", "n=" + i));
                }))
                .start("127.0.0.1", 0);
    }

    @Test
    void aCanonicalRequestIsServedAndTheConnectionKept() throws IOException {
        try (RawHttp http = new RawHttp(server.port())) {
            for (int i = 1; i <= 3; i++) {
                http.send("GET /v1/users/" + i + "/unread?cap=99 HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Answer answer = http.read();
                assertThat(answer.status()).isEqualTo(200);
                assertThat(json(answer).path("userId").asLong()).isEqualTo(i);
            }
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws IOException {
        try (RawHttp http = new RawHttp(server.port())) {
            StringBuilder requests = new StringBuilder();
            for (int i = 1; i <= 20; i++) requests.append("GET /v1/users/").append(i).append("/unread HTTP/1.1\r\nHost: x\r\n\r\n");
            http.send(requests.toString());
            for (int i = 1; i <= 20; i++) assertThat(json(http.read()).path("userId").asLong()).isEqualTo(i);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/v1/users/1%2Funread", "/v1/users//1/unread", "/v1/users/1/unread/", "/v1/users/1/%75nread",
            "/v1/users/./1/unread", "/v1/users/1/../1/unread", "mailto:x", "http://example.com/v1/users/1/unread",
            "*", "/v1/users/1/unread;x=1", "/v1/users/1/unread#top"})
    void everyOtherSpellingOfAPathIsRefusedNamingThePath(String target) throws IOException {
        RawHttp.Answer answer = RawHttp.exchange(server.port(), "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(answer.status()).as(target).isEqualTo(400);
        assertThat(answer.head()).containsIgnoringCase("content-type: application/problem+json");
        assertThat(json(answer).path("field").asText()).isEqualTo("path");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cap=%D9%A1%D9%A0", "cap=%EF%BC%91", "cap=+5", "cap=05", "cap=5&cap=6", "cap=%zz",
            "cap=%C3%28", "cap=5&&x=1", "cap=1001", "cap=0"})
    void numbersAreAsciiDigitsAndParametersComeOnceWellEncoded(String query) throws IOException {
        RawHttp.Answer answer = RawHttp.exchange(server.port(), "GET /v1/users/1/unread?" + query + " HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(answer.status()).as(query).isEqualTo(400);
        assertThat(answer.head()).containsIgnoringCase("application/problem+json");
    }

    @Test
    void aPathIdWithNonAsciiDigitsIsRefused() {
        assertThat(CanonicalNumbers.positiveId("١٠١")).isEmpty();
        assertThat(CanonicalNumbers.positiveId("１０１")).isEmpty();
        assertThat(CanonicalNumbers.positiveId("0101")).isEmpty();
        assertThat(CanonicalNumbers.positiveId("9223372036854775808")).isEmpty();
        assertThat(CanonicalNumbers.positiveId("9223372036854775807")).hasValue(Long.MAX_VALUE);
    }

    @Test
    void aLongHostileValueIsEchoedAsAShortPrefixOnly() throws IOException {
        String hostile = "<script>" + "x".repeat(3_000);
        RawHttp.Answer answer = RawHttp.exchange(server.port(), "GET /v1/users/" + "9".repeat(30) + "/unread?cap=" + hostile
                + " HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body().length()).isLessThan(400);
        assertThat(answer.body()).doesNotContain("x".repeat(Problem.ECHO_LIMIT + 1));
    }

    @Test
    void aRepeatedAuthorizationHeaderIsRefused() throws IOException {
        RawHttp.Answer answer = RawHttp.exchange(server.port(), "GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(json(answer).path("field").asText()).isEqualTo("Authorization");
    }

    @Test
    void oversizedHeadersAndRequestLinesAreRefusedWithTheirStatus() throws IOException {
        assertThat(RawHttp.exchange(server.port(), "GET /v1/users/1/unread HTTP/1.1\r\nX-Big: " + "a".repeat(370_000) + "\r\n\r\n")
                .status()).isEqualTo(431);
        StringBuilder many = new StringBuilder("GET /v1/users/1/unread HTTP/1.1\r\n");
        for (int i = 0; i < 100; i++) many.append("X-").append(i).append(": 1\r\n");
        assertThat(RawHttp.exchange(server.port(), many.append("\r\n").toString()).status()).isEqualTo(431);
        assertThat(RawHttp.exchange(server.port(), "GET /v1/users/1/unread?cap=" + "1".repeat(10_000) + " HTTP/1.1\r\n\r\n")
                .status()).isEqualTo(414);
    }

    @Test
    void bodiesAreBoundedWhileTheyArrive() throws IOException {
        assertThat(RawHttp.exchange(server.port(), "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + "a".repeat(100))
                .status()).isEqualTo(200);
        // Declared too large: refused before the body is sent.
        assertThat(RawHttp.exchange(server.port(), "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
                .status()).isEqualTo(413);
        // Declared too large and sent anyway, as most clients do: the answer still arrives.
        assertThat(RawHttp.exchange(server.port(), "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n"
                + "a".repeat(200_000)).status()).isEqualTo(413);
        // Chunked, growing past the server's bound.
        int half = HttpLimits.NO_BODY / 2 + 1;
        String chunk = Integer.toHexString(half) + "\r\n" + "a".repeat(half) + "\r\n";
        assertThat(RawHttp.exchange(server.port(), "POST /v1/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + chunk + chunk).status()).isEqualTo(413);
        // Within the server's bound but above the route's.
        assertThat(RawHttp.exchange(server.port(), "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 600\r\n\r\n" + "a".repeat(600))
                .status()).isEqualTo(413);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "POST /v1/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
            "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde",
            "GET /v1/users/1/unread HTTP/9.9\r\n\r\n",
            "GARBAGE\r\n\r\n",
            "GET /v1/users/1/unread HTTP/1.1\r\nBad Header\r\n\r\n"})
    void malformedHttpIsAnswered400AndNever500(String request) throws IOException {
        RawHttp.Answer answer = RawHttp.exchange(server.port(), request);

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.head()).containsIgnoringCase("application/problem+json");
        assertThat(answer.body()).doesNotContainIgnoringCase("exception");
    }

    @Test
    void aConnectionThatStopsMidHeaderIsAnswered408AndClosed() throws IOException {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /v1/users/1/unread HTTP/1.1\r\nX-Slow: aaa");
            long started = System.nanoTime();

            RawHttp.Answer answer = http.read();

            assertThat(answer.status()).isEqualTo(408);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(REQUEST_TIMEOUT.multipliedBy(6));
            assertThat(http.closedByServer()).isTrue();
        }
    }

    /**
     * While a request is answered the socket is read ahead: what arrives then must be treated as if read after the
     * answer. Each of these sends its second part while the first request's answer is held back by the route. Whether
     * the server reads that part before or after releasing the answer is up to its event loop, so these hold the
     * outcome either way; {@link ReadAheadTest} pins down the read-ahead itself.
     */
    @Test
    void aRequestStartedDuringAnAnswerMustFollowWithinTheRequestTimeout() throws Exception {
        try (RawHttp http = holdAnAnswer()) {
            http.send("GET /v1/users/1/unread HTTP/1.1\r\nX-Slow: aaa");
            releaseTheAnswer();
            assertThat(http.read().status()).isEqualTo(200);
            long answered = System.nanoTime();

            RawHttp.Answer answer = http.read();

            assertThat(answer.status()).as("408, not closed silently after the idle timeout").isEqualTo(408);
            assertThat(Duration.ofNanos(System.nanoTime() - answered)).isLessThan(IDLE_TIMEOUT.plus(REQUEST_TIMEOUT));
            assertThat(http.closedByServer()).isTrue();
        }
    }

    @Test
    void anOversizedRequestSentDuringAnAnswerIsRefusedAfterThatAnswer() throws Exception {
        try (RawHttp http = holdAnAnswer()) {
            http.send("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n");
            releaseTheAnswer();

            assertThat(http.read().status()).as("the first request's answer comes first").isEqualTo(200);
            assertThat(http.read().status()).isEqualTo(413);
        }
    }

    @Test
    void aRequestFollowedByTheEndOfInputIsStillAnsweredThenClosed() throws Exception {
        try (RawHttp http = holdAnAnswer()) {
            http.endInput();
            releaseTheAnswer();

            RawHttp.Answer answer = http.read();

            assertThat(answer.status()).isEqualTo(200);
            assertThat(json(answer).path("held").asBoolean()).isTrue();
            assertThat(http.closedByServer()).isTrue();
        }
    }

    /** A connection whose {@code GET /v1/held} has reached its route and waits there for {@link #releaseTheAnswer}. */
    private static RawHttp holdAnAnswer() throws IOException, InterruptedException {
        CountDownLatch requested = new CountDownLatch(1);
        heldAnswer.set(new HeldAnswer(requested, new CompletableFuture<>()));
        RawHttp http = new RawHttp(server.port());
        http.send("GET /v1/held HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(requested.await(5, TimeUnit.SECONDS)).as("the held request reached its route").isTrue();
        return http;
    }

    private static void releaseTheAnswer() {
        heldAnswer.get().answer().complete(Response.ok(Map.of("held", true)));
    }

    @Test
    void anIdleKeptAliveConnectionIsClosed() throws IOException {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(200);

            assertThat(http.closedByServer()).as("closed after the idle timeout, before the socket's 10 s").isTrue();
        }
    }

    @Test
    void aConnectionInUseOutlivesItsIdleTimeout() throws IOException {
        try (RawHttp http = new RawHttp(server.port())) {
            long until = System.nanoTime() + IDLE_TIMEOUT.multipliedBy(3).toNanos();
            int answered = 0;
            while (System.nanoTime() < until) {
                http.send("GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(http.read().status()).as("request %d on the kept connection", answered + 1).isEqualTo(200);
                answered++;
            }
            assertThat(answered).isGreaterThan(10);
        }
    }

    @Test
    void connectionsBeyondTheCapAreClosedAtOnceAndOthersServedAgainAfterwards() throws IOException {
        List<RawHttp> held = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_CONNECTIONS; i++) {
                RawHttp http = new RawHttp(server.port());
                http.send("GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(http.read().status()).isEqualTo(200);
                held.add(http);
            }
            try (RawHttp extra = new RawHttp(server.port())) {
                assertThat(extra.closedByServer()).isTrue();
            }
        } finally {
            for (RawHttp http : held) http.close();
        }
        // Closed connections are counted off a moment after the client sees them closed.
        await().ignoreExceptions().untilAsserted(() ->
                assertThat(RawHttp.exchange(server.port(), "GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(200));
    }

    @Test
    void anEventStreamDeliversEachEventAsItIsSentAndNoticesTheClientLeaving() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /v1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
            String head = http.readHead();
            assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("content-type: text/event-stream")
                    .containsIgnoringCase("transfer-encoding: chunked");

            List<String> lines = new ArrayList<>();
            while (lines.stream().filter(line -> line.startsWith("data: ")).count() < 3) {
                String line = http.readLine();
                if (line.startsWith("id: ") || line.startsWith("event: ") || line.startsWith("data: ")) lines.add(line);
            }
            assertThat(lines).containsExactly("id: 1", "event: count", "data: n=1", "id: 2", "event: count", "data: n=2",
                    "id: 3", "event: count", "data: n=3");
        }
        assertThat(streamClosed.await(5, TimeUnit.SECONDS)).as("the sink saw the client go").isTrue();
    }

    @Test
    void clientsResettingConnectionsLeaveNothingAboveDebugInTheLog() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        root.addAppender(events);
        try {
            for (int i = 0; i < 20; i++) {
                try (Socket socket = new Socket("127.0.0.1", server.port())) {
                    socket.getOutputStream().write("GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/us".getBytes(StandardCharsets.US_ASCII));
                    socket.setSoLinger(true, 0); // close with a reset, as a client killed mid-request does
                }
            }
            // A request after them is served, so the server has handled the resets by then.
            await().ignoreExceptions().untilAsserted(() -> assertThat(RawHttp.exchange(server.port(),
                    "GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(200));
            assertThat(events.list).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.INFO)
                            && event.getLoggerName().startsWith("io.readmark.common.http"))
                    .extracting(ILoggingEvent::getFormattedMessage).isEmpty();
        } finally {
            root.detachAppender(events);
        }
    }

    private static JsonNode json(RawHttp.Answer answer) throws IOException {
        return Json.MAPPER.readTree(answer.body());
    }
}
