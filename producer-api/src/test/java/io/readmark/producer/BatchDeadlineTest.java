package io.readmark.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.readmark.client.EventPublisher;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.Topics;

/**
 * A batch is answered by its deadline even when handing events to the producer blocks (a full send buffer, topic
 * metadata not yet known): send blocks for up to {@code max.block.ms} each time, which is the whole ack timeout.
 */
class BatchDeadlineTest {

    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration EACH_SEND_BLOCKS = Duration.ofMillis(2_000);

    /** Acknowledges every event at once, but only after blocking in send, as a producer whose buffer is full does. */
    private static final class BlockingSendProducer extends MockProducer<String, Event> {

        BlockingSendProducer() {
            super(true, null, new StringSerializer(), Topics.EVENT_SERDE);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<String, Event> record, Callback callback) {
            try {
                Thread.sleep(EACH_SEND_BLOCKS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.send(record, callback);
        }
    }

    @Test
    void aBatchWhoseSendsBlockIsAnsweredByItsDeadlineWithTheEventsNotYetAcknowledgedUnavailable() throws Exception {
        // Given a batch route whose producer blocks 2 s in every send, and a 3 s ack timeout: a second of margin
        // on either side of the first acknowledgement, so a busy machine does not move it past the deadline
        EventPublisher publisher = EventPublisher.over(new BlockingSendProducer(), Topics.defaults(), Duration.ofSeconds(10));
        BatchIngestRoutes batch = new BatchIngestRoutes(publisher, ACK_TIMEOUT, 100, 65_536, EventTimeLimit.DEFAULT);
        try (JsonHttpServer server = new JsonHttpServer("test").route("POST", "/v1/events:batch", request -> batch.ingest(request, null))
                .start("127.0.0.1", 0);
             HttpCalls http = new HttpCalls(server.port())) {

            http.postJson("/v1/events:batch", "[]");   // warms client and server up, so the timing below is the route's

            // When three events are posted
            long started = System.nanoTime();
            HttpResponse<String> response = http.postJson("/v1/events:batch", "[" + String.join(",",
                    event("a"), event("b"), event("c")) + "]");
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            // Then the answer comes by the deadline, not after the second send returned (4 s): the first event was
            // acknowledged, the others are unavailable and safe to retry
            assertThat(took).isLessThan(ACK_TIMEOUT.plusMillis(700));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
            JsonNode results = HttpCalls.json(response).get("results");
            assertThat(results.get(0).get("status").asText()).isEqualTo("accepted");
            assertThat(results.get(1).get("status").asText()).isEqualTo("unavailable");
            assertThat(results.get(2).get("status").asText()).isEqualTo("unavailable");
        } finally {
            publisher.close();
        }
    }

    private static String event(String eventId) {
        return """
                {"type":"BlogPublished","eventId":"%s","blogId":1,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}"""
                .formatted(eventId);
    }
}
