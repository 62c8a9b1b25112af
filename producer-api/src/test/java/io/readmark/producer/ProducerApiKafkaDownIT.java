package io.readmark.producer;

import io.readmark.testing.KafkaRecords;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.readmark.schemas.Topics;

/** When Kafka cannot take an event, the client hears so quickly, with a hint when to retry. */
class ProducerApiKafkaDownIT {

    private static final String EVENT = """
            {"type":"BlogPublished","eventId":"down-1","blogId":1,"authorId":7,"publishedAt":"2026-03-01T12:00:00Z"}""";

    @Test
    void unreachableKafkaIsA503WithRetryAfterWithinTheAckTimeout() throws Exception {
        // Given an API whose Kafka is a port nothing listens on, and a 1 s ack timeout
        String nowhere = "127.0.0.1:" + KafkaRecords.unusedLocalPort();
        try (ProducerApi api = ProducerApi.start(config(nowhere, Topics.defaults()));
             HttpCalls http = new HttpCalls(api.port())) {

            // When
            long started = System.nanoTime();
            HttpResponse<String> response = http.postJson("/v1/events", EVENT);
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            // Then
            assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
            assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            JsonNode problem = HttpCalls.json(response);
            assertThat(problem.get("title").asText()).isEqualTo("Kafka unavailable");
            assertThat(problem.get("status").asInt()).isEqualTo(503);
            assertThat(took).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void unreachableKafkaIsNotReadyButStillLive() throws Exception {
        // Given
        String nowhere = "127.0.0.1:" + KafkaRecords.unusedLocalPort();
        try (ProducerApi api = ProducerApi.start(config(nowhere, Topics.defaults()));
             HttpCalls http = new HttpCalls(api.port())) {

            // When
            long started = System.nanoTime();
            HttpResponse<String> ready = HttpCalls.management(api, "/health/ready");
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            HttpResponse<String> live = HttpCalls.management(api, "/health/live");

            // Then
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
            assertThat(ready.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(took).isLessThan(Duration.ofSeconds(5));
            assertThat(live.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void missingEventTopicsAreNotReady() throws Exception {
        // Given a reachable Kafka on which this API's topics were never created
        Topics missing = Topics.named("kafkadownit.never-created-blog", "kafkadownit.never-created-follow",
                "kafkadownit.never-created-read", "kafkadownit.never-created-dlq");
        try (ProducerApi api = ProducerApi.start(config(KafkaRecords.bootstrap(), missing));
             HttpCalls http = new HttpCalls(api.port())) {

            // When
            HttpResponse<String> ready = HttpCalls.management(api, "/health/ready");

            // Then
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
            assertThat(HttpCalls.json(ready).get("detail").asText()).contains("missing");
        }
    }

    private static ProducerApiConfig config(String bootstrap, Topics topics) {
        return ProducerApiConfig.onLoopback(bootstrap, topics).withAckTimeout(Duration.ofSeconds(1));
    }
}
