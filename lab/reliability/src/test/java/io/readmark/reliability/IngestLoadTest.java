package io.readmark.reliability;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The load's record of answers it cannot read: a failed call with its status, and the clients go on posting. */
class IngestLoadTest {

    @Test
    void shouldRecordAnAnswerThatIsNotJsonAsAFailedCallAndKeepPosting() throws IOException, InterruptedException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] page = "<html>bad gateway</html>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(502, page.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(page);
            }
        });
        server.start();
        IngestLoad load = new IngestLoad("http://127.0.0.1:" + server.getAddress().getPort(), 1, 1);
        try {
            load.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> load.count(call -> call.status() == 502) >= 10);
        } finally {
            load.stop();
            server.stop(0);
        }
        assertThat(load.calls()).allSatisfy(call -> {
            assertThat(call.status()).isEqualTo(502);
            assertThat(call.accepted()).isEmpty();
        });
    }
}
