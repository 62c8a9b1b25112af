package io.readmark.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.readmark.schemas.Topics;

/**
 * The API stores no event the processor would dead-letter for its size: the limit is the event as stored, whatever
 * the body limits allow (here raised so that such a body gets through).
 */
class ProducerApiEventSizeIT {

    @AutoClose
    private static final ProducerApiFixture producer = ProducerApiFixture.start(ProducerApiEventSizeIT.class, config -> config.withMaxBodyBytes(1024 * 1024));
    private static final HttpCalls http = producer.http;

    private static final String SENT_AT = "2026-03-01T12:00:00Z";

    @Test
    void anEventLargerAsStoredThanTheProcessorReadsIsTooLargeAlone() {
        // Given a notice to 10,000 recipients with 19-digit ids: about 200 KB once written
        String oversize = noticeSent("size-1", 1_000_000_000_000_000_000L);

        // When
        HttpResponse<String> single = http.postJson("/v1/events", oversize);
        HttpResponse<String> batch = http.postJson("/v1/events:batch", "[" + oversize + "," + noticeSent("size-2", 1) + "]");

        // Then
        assertThat(single.statusCode()).as(single.body()).isEqualTo(413);
        assertThat(HttpCalls.json(single).get("detail").asText()).contains(Integer.toString(Topics.MAX_EVENT_BYTES));
        assertThat(batch.statusCode()).as(batch.body()).isEqualTo(200);
        JsonNode results = HttpCalls.json(batch).get("results");
        assertThat(results.get(0).get("status").asText()).isEqualTo("rejected");
        assertThat(results.get(0).get("eventId").asText()).isEqualTo("size-1");
        assertThat(results.get(0).get("detail").asText()).contains(Integer.toString(Topics.MAX_EVENT_BYTES));
        assertThat(results.get(1).get("status").asText()).as("a small one beside it").isEqualTo("accepted");
    }

    @Test
    void aBodyPaddedWithUnknownFieldsIsStoredWithoutThem() {
        // Given a small event carrying 100 KB of a field the contract does not know
        String padded = """
                {"type":"BlogPublished","eventId":"size-3","blogId":1,"authorId":7,"publishedAt":"%s","pad":"%s"}"""
                .formatted(SENT_AT, "x".repeat(100 * 1024));

        // When
        HttpResponse<String> response = http.postJson("/v1/events", padded);

        // Then
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    }

    private static String noticeSent(String eventId, long firstRecipient) {
        String recipients = LongStream.range(firstRecipient, firstRecipient + 10_000).mapToObj(Long::toString)
                .collect(Collectors.joining(","));
        return """
                {"type":"NoticeSent","eventId":"%s","noticeId":9,"recipientIds":[%s],"sentAt":"%s"}"""
                .formatted(eventId, recipients, SENT_AT);
    }
}
