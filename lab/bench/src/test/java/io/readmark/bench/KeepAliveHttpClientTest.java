package io.readmark.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The load generator's HTTP client against a scripted server on a local socket. */
class KeepAliveHttpClientTest {

    /** Reads one request head (up to the blank line) and returns it. */
    private static String readHead(InputStream in) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) throw new IllegalStateException("client closed");
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void shouldSendEachRequestAndParseAnswersWhateverTheirSplitAndHeaderCase() throws Exception {
        String big = "x".repeat(40_000); // larger than the client's initial buffer
        List<String> answers = List.of(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 13\r\n\r\n{\"total\":42}\n",
                "HTTP/1.1 404 Not Found\r\nContent-Length:0\r\nDate: today\r\n\r\n",
                "HTTP/1.1 200 OK\r\nCONTENT-LENGTH: " + big.length() + "\r\n\r\n" + big,
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nété",
                "HTTP/1.1 200 OK\r\nETag: W/\"5-0\"\r\nContent-Length: 2\r\n\r\n{}",
                "HTTP/1.1 304 Not Modified\r\netag:  W/\"5-0\" \r\n\r\n");
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<String>> heads = CompletableFuture.supplyAsync(() -> {
                try (Socket socket = listener.accept()) {
                    OutputStream out = socket.getOutputStream();
                    List<String> received = new java.util.ArrayList<>();
                    for (String answer : answers) {
                        received.add(readHead(socket.getInputStream()));
                        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
                        // Split mid-line and mid-body: the client must not rely on one read per answer.
                        for (int from = 0; from < bytes.length; from += 7) {
                            out.write(bytes, from, Math.min(7, bytes.length - from));
                            out.flush();
                        }
                    }
                    return received;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (KeepAliveHttpClient client = new KeepAliveHttpClient("127.0.0.1", listener.getLocalPort())) {
                assertThat(client.get("/v1/users/7/unread")).isEqualTo(new KeepAliveHttpClient.Answer(200, "{\"total\":42}\n", null));
                assertThat(client.get("/nothing")).isEqualTo(new KeepAliveHttpClient.Answer(404, "", null));
                assertThat(client.get("/big").body()).isEqualTo(big);
                assertThat(client.get("/utf8").body()).isEqualTo("été");
                assertThat(client.get("/tagged")).isEqualTo(new KeepAliveHttpClient.Answer(200, "{}", "W/\"5-0\""));
                assertThat(client.get("/tagged", "W/\"5-0\"")).isEqualTo(new KeepAliveHttpClient.Answer(304, "", "W/\"5-0\""));
            }
            assertThat(heads.join()).containsExactly(
                    "GET /v1/users/7/unread HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n",
                    "GET /nothing HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n",
                    "GET /big HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n",
                    "GET /utf8 HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n",
                    "GET /tagged HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n",
                    "GET /tagged HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nIf-None-Match: W/\"5-0\"\r\n\r\n");
        }
    }

    @Test
    void shouldRefuseAnAnswerWithoutContentLengthOrAClosedConnection() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> server = CompletableFuture.runAsync(() -> {
                try (Socket socket = listener.accept()) {
                    readHead(socket.getInputStream());
                    socket.getOutputStream().write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    readHead(socket.getInputStream());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (KeepAliveHttpClient client = new KeepAliveHttpClient("127.0.0.1", listener.getLocalPort())) {
                assertThatThrownBy(() -> client.get("/a")).hasMessageContaining("without Content-Length");
                assertThatThrownBy(() -> client.get("/b")).hasMessageContaining("closed by the server");
            }
            server.join();
        }
    }

    @Test
    void shouldFailALoadWhoseServerNeverAnswersOnceItIsStuckPastTheMeasurement() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            // Accepts and reads, never answers: the clients block in a read without a timeout of their own.
            Thread silent = Thread.ofVirtual().start(() -> {
                while (!listener.isClosed()) {
                    try {
                        Socket socket = listener.accept();
                        Thread.ofVirtual().start(() -> {
                            try (socket) {
                                socket.getInputStream().transferTo(OutputStream.nullOutputStream());
                            } catch (Exception e) {
                                // the client went away
                            }
                        });
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            ConcurrentLoad.ClientFactory clients = () -> {
                KeepAliveHttpClient http = new KeepAliveHttpClient("127.0.0.1", listener.getLocalPort());
                return new ConcurrentLoad.Client() {
                    @Override
                    public void call(long userId) throws Exception {
                        http.get("/v1/users/" + userId + "/unread");
                    }

                    @Override
                    public void close() throws java.io.IOException {
                        http.close();
                    }
                };
            };

            // A window long enough for the clients to start and send their first request even on a busy machine.
            assertThatThrownBy(() -> ConcurrentLoad.run("silent", 2, java.time.Duration.ZERO, java.time.Duration.ofSeconds(1),
                    10, 1, clients, new java.io.PrintStream(OutputStream.nullOutputStream()), java.time.Duration.ofMillis(200)))
                    .hasMessageContaining("a request failed")
                    .cause().hasMessageContaining("unanswered 200 ms after the measurement ended");
            listener.close();
            silent.join();
        }
    }
}
