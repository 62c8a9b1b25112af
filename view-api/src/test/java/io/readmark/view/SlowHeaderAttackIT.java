package io.readmark.view;

import io.readmark.infra.TestInfrastructure;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The attack that took down a view API with a 256 MB heap before any token was checked: 200 connections that each
 * send a 370 KB header and never finish it, and connections that stop mid-header. Run against a real view API
 * process with that heap: it stays alive and keeps serving other clients, and frees the silent connections.
 */
class SlowHeaderAttackIT {

    private static final int ATTACKERS = 200;
    private static final int HEADER_BYTES = 370 * 1024;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

    @Test
    void aViewApiWithA256MbHeapOutlivesSlowHeaderConnectionsAndServesOthersMeanwhile() throws Exception {
        int port = freePort();
        int managementPort = freePort();
        Path log = Files.createTempFile("view-api-attack", ".log");
        Process api = start(port, managementPort, log);
        List<Socket> attackers = new ArrayList<>();
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> get(http, managementPort, "/health/live").statusCode() == 200);

            // When 200 connections each push a huge header without ever ending it...
            byte[] start = "GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\nX-Pad: ".getBytes(StandardCharsets.US_ASCII);
            byte[] padding = "a".repeat(HEADER_BYTES).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < ATTACKERS; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                attackers.add(socket);
                OutputStream out = socket.getOutputStream();
                out.write(start);
                try {
                    out.write(padding);
                    out.flush();
                } catch (IOException refused) {
                    // the server answered 431 and closed while the header was still coming: what it should do
                }
            }
            // ...and as many stop mid-header and stay silent
            for (int i = 0; i < ATTACKERS; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                attackers.add(socket);
                socket.getOutputStream().write(start);
            }

            // Then another client is served all along
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> counts = get(http, port, "/v1/users/" + (i + 1) + "/unread");
                assertThat(counts.statusCode()).as(counts.body()).isEqualTo(200);
            }
            // And the silent connections are closed once the request timeout has passed
            for (Socket socket : attackers.subList(ATTACKERS, attackers.size())) {
                socket.setSoTimeout((int) REQUEST_TIMEOUT.multipliedBy(10).toMillis());
                assertThat(readsToEnd(socket)).as("closed by the server").isTrue();
            }
            assertThat(api.isAlive()).as("the view API process, see " + log).isTrue();
            assertThat(Files.readString(log)).doesNotContain("OutOfMemoryError");
            assertThat(get(http, managementPort, "/health/live").statusCode()).isEqualTo(200);
        } finally {
            for (Socket socket : attackers) socket.close();
            api.destroy();
            api.waitFor();
        }
    }

    private static Process start(int port, int managementPort, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(), "-Xmx256m", "-XX:+UseSerialGC"));
        if (Runtime.version().feature() >= 24) command.add("--sun-misc-unsafe-memory-access=allow");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ViewApi.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(Map.of(
                ViewApiConfig.HOST, "127.0.0.1",
                ViewApiConfig.PORT, Integer.toString(port),
                ViewApiConfig.MANAGEMENT_PORT, Integer.toString(managementPort),
                ViewApiConfig.REDIS_URL, TestInfrastructure.shared().redisUrl(),
                "HTTP_REQUEST_TIMEOUT", REQUEST_TIMEOUT.toString(),
                "READMARK_AUTH", "off"));
        return builder.start();
    }

    /** True when the server closes the connection (its 408, then end of stream) within the socket's timeout. */
    private static boolean readsToEnd(Socket socket) {
        try {
            while (socket.getInputStream().read() >= 0) {
                // the 408 answer
            }
            return true;
        } catch (IOException e) {
            return e.getMessage() != null && e.getMessage().contains("reset");
        }
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
