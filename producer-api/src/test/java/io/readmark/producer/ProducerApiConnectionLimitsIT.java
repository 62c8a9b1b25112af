package io.readmark.producer;

import io.readmark.common.config.Settings;
import io.readmark.testing.KafkaRecords;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The producer API with its default limits, as deployed, while one host opens more silent connections than the API
 * has (its cap is the smaller of the two APIs'): another host still publishes, the host's connections past its share
 * are closed at once and the rest once the first-byte deadline has passed.
 */
class ProducerApiConnectionLimitsIT {

    private static final int CAP = 256;
    private static final List<String> TOPIC_SETTINGS = List.of("READMARK_TOPIC_BLOG_EVENTS", "READMARK_TOPIC_FOLLOW_EVENTS",
            "READMARK_TOPIC_READ_EVENTS", "READMARK_TOPIC_NOTICE_EVENTS", "READMARK_TOPIC_DLQ", "READMARK_TOPIC_FANOUT");

    @Test
    void oneHostsSilentConnectionsPastTheCapLeaveIngestOpenToAnotherHost() throws Exception {
        // Given the producer API with nothing set but where it listens and what it publishes to
        ProducerApiConfig config = ProducerApiConfig.from(Settings.of(Map.of(), environment()));
        assertThat(config.http().maxConnections()).isEqualTo(CAP);
        List<Socket> silent = new ArrayList<>();
        try (ProducerApi api = ProducerApi.start(config);
             HttpClient otherHost = HttpClient.newBuilder().localAddress(InetAddress.getByName("127.0.0.2")).build()) {
            // When one host opens more connections than the API has, and sends nothing
            for (int i = 0; i < CAP + 44; i++) {
                Socket socket = new Socket();
                silent.add(socket);
                socket.bind(new InetSocketAddress("127.0.0.1", 0));
                socket.connect(new InetSocketAddress("127.0.0.1", api.port()));
            }

            // Then another host still publishes
            HttpResponse<String> published = otherHost.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + api.port() + "/v1/events"))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"type":"BlogPublished","eventId":"probe-1","blogId":1,"authorId":7,"publishedAt":"2026-03-01T12:00:00Z"}"""))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(published.statusCode()).as(published.body()).isEqualTo(202);
            // And the silent host's connections past its share were closed at once, well before the first-byte deadline
            Duration firstByte = config.http().firstByteTimeout();
            assertThat(closedWithin(silent.getLast(), firstByte.dividedBy(5))).as("past the share").isTrue();
            // And the others once that deadline has passed, not after the idle timeout
            assertThat(closedWithin(silent.getFirst(), firstByte.multipliedBy(3))).as("within the share").isTrue();
        } finally {
            for (Socket socket : silent) socket.close();
        }
    }

    private static Map<String, String> environment() {
        Function<String, Optional<String>> topics = KafkaRecords.createTopicsFor(ProducerApiConnectionLimitsIT.class);
        Map<String, String> environment = new HashMap<>(Map.of("READMARK_AUTH", "off",
                ProducerApiConfig.HOST, "127.0.0.1", ProducerApiConfig.PORT, "0", ProducerApiConfig.MANAGEMENT_PORT, "0",
                ProducerApiConfig.BOOTSTRAP_SERVERS, KafkaRecords.bootstrap()));
        for (String setting : TOPIC_SETTINGS) topics.apply(setting).ifPresent(name -> environment.put(setting, name));
        return environment;
    }

    /** True when the server closes {@code socket} (end of stream or reset) within {@code wait}. */
    private static boolean closedWithin(Socket socket, Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        try {
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // nothing is sent to a connection that sent nothing; read to its end
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
