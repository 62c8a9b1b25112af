package io.readmark.producer;

import io.readmark.testing.KafkaRecords;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.readmark.schemas.AllRead;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.BlogsRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.InboxSeen;
import io.readmark.schemas.AudienceJoined;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.NoticesAllRead;
import io.readmark.schemas.Topics;

/** The ingest endpoint against a real broker: what it answers, and what it really stored. */
class ProducerApiIT {

    @AutoClose
    private static final ProducerApiFixture producer = ProducerApiFixture.start(ProducerApiIT.class);
    private static final HttpCalls http = producer.http;
    private static final Topics topics = producer.topics;

    private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void anEventIdWithALineBreakIsLoggedOnOneLine() {
        // Given the route's log recorded, down to the accepted events
        ListAppender<ILoggingEvent> recorded = new ListAppender<>();
        recorded.start();
        Logger routeLog = (Logger) LoggerFactory.getLogger(IngestRoutes.class);
        Level level = routeLog.getLevel();
        routeLog.setLevel(Level.DEBUG);
        routeLog.addAppender(recorded);
        try {
            // When an eventId tries to start a log line of its own
            HttpResponse<String> response = http.postJson("/v1/events", """
                    {"type":"AllRead","eventId":"log-1\\n2026-03-01 ERROR forged","userId":5,"readAt":"2026-03-01T12:00:00Z"}""");

            // Then it is stored as sent, and logged escaped
            assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
            assertThat(recorded.list).extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(line -> assertThat(line).contains("log-1\\n2026-03-01 ERROR forged"))
                    .allSatisfy(line -> assertThat(line).doesNotContain("\n"));
        } finally {
            routeLog.detachAppender(recorded);
            routeLog.setLevel(level);
        }
    }

    @Test
    void acceptedBlogPublishedIsInKafkaWhereTheReceiptSaysKeyedByAuthor() {
        // Given
        String body = """
                {"type":"BlogPublished","eventId":"api-pub-1","blogId":101,"authorId":7,"publishedAt":"2026-03-01T12:00:00Z"}""";

        // When
        HttpResponse<String> response = http.postJson("/v1/events", body);

        // Then the receipt names the stored position
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode receipt = HttpCalls.json(response);
        assertThat(receipt.get("eventId").asText()).isEqualTo("api-pub-1");
        assertThat(receipt.get("topic").asText()).isEqualTo(topics.blogEvents().name());
        assertThat(receipt.get("partition").isInt()).isTrue();
        assertThat(receipt.get("offset").isIntegralNumber()).isTrue();
        // And the event really is there, as a consumer would read it
        ConsumerRecord<String, byte[]> record = storedAt(receipt);
        assertThat(record.key()).isEqualTo("7");
        assertThat(Topics.EVENT_SERDE.decode(record.value())).isEqualTo(new BlogPublished("api-pub-1", 101, 7, AT));
    }

    @Test
    void acceptedBlogReadIsInKafkaKeyedByReader() {
        // Given
        String body = """
                {"type":"BlogRead","eventId":"api-read-1","userId":300,"blogId":101,"authorId":7,"readAt":"2026-03-01T12:00:00Z"}""";

        // When
        HttpResponse<String> response = http.postJson("/v1/events", body);

        // Then
        assertThat(response.statusCode()).isEqualTo(202);
        JsonNode receipt = HttpCalls.json(response);
        assertThat(receipt.get("topic").asText()).isEqualTo(topics.readEvents().name());
        ConsumerRecord<String, byte[]> record = storedAt(receipt);
        assertThat(record.key()).isEqualTo("300");
        assertThat(Topics.EVENT_SERDE.decode(record.value())).isEqualTo(new BlogRead("api-read-1", 300, 101, 7, AT));
    }

    @Test
    void acceptedAllReadAndInboxSeenAreInKafkaKeyedByTheUser() {
        assertStoredOnReadEvents("""
                {"type":"AllRead","eventId":"api-all-1","userId":301,"readAt":"2026-03-01T12:00:00Z"}""",
                "301", new AllRead("api-all-1", 301, AT));
        assertStoredOnReadEvents("""
                {"type":"InboxSeen","eventId":"api-seen-1","userId":302,"seenAt":"2026-03-01T12:00:00Z"}""",
                "302", new InboxSeen("api-seen-1", 302, AT));
    }

    @Test
    void acceptedBlogsReadIsInKafkaKeyedByTheUser() {
        assertStoredOnReadEvents("""
                {"type":"BlogsRead","eventId":"api-reads-1","userId":"304","readAt":"2026-03-01T12:00:00Z",
                 "blogs":[{"blogId":101,"authorId":7},{"blogId":"102","authorId":"8"},{"blogId":101,"authorId":7}]}""",
                "304", new BlogsRead("api-reads-1", 304, List.of(new BlogsRead.Blog(101, 7), new BlogsRead.Blog(102, 8),
                        new BlogsRead.Blog(101, 7)), AT));
    }

    @Test
    void noticeEventsGoToTheNoticeTopicKeyedByAudienceOrNoticeAndNoticeReadsToReadEvents() {
        assertStored("""
                {"type":"NoticePublished","eventId":"api-np-1","noticeId":501,"audience":"staff","publishedAt":"2026-03-01T12:00:00Z"}""",
                topics.noticeEvents().name(), "staff", new NoticePublished("api-np-1", 501, "staff", AT));
        assertStored("""
                {"type":"AudienceJoined","eventId":"api-aj-1","userId":"303","audience":"staff","at":"2026-03-01T12:00:00Z"}""",
                topics.noticeEvents().name(), "staff", new AudienceJoined("api-aj-1", 303, "staff", AT));
        assertStored("""
                {"type":"NoticeSent","eventId":"api-ns-1","noticeId":502,"recipientIds":[303,"304"],"sentAt":"2026-03-01T12:00:00Z"}""",
                topics.noticeEvents().name(), "502", new NoticeSent("api-ns-1", 502, List.of(303L, 304L), AT));
        assertStoredOnReadEvents("""
                {"type":"NoticeRead","eventId":"api-nr-1","userId":303,"noticeId":501,"readAt":"2026-03-01T12:00:00Z"}""",
                "303", new NoticeRead("api-nr-1", 303, 501, AT));
        assertStoredOnReadEvents("""
                {"type":"NoticesAllRead","eventId":"api-nar-1","userId":303,"readAt":"2026-03-01T12:00:00Z"}""",
                "303", new NoticesAllRead("api-nar-1", 303, AT));
    }

    @Test
    void joiningEveryoneIsABadRequestNamingTheAudience() {
        HttpResponse<String> response = http.postJson("/v1/events", """
                {"type":"AudienceJoined","eventId":"api-aj-2","userId":303,"audience":"everyone","at":"2026-03-01T12:00:00Z"}""");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("audience");
    }

    private void assertStoredOnReadEvents(String body, String key, Event event) {
        assertStored(body, topics.readEvents().name(), key, event);
    }

    private void assertStored(String body, String topic, String key, Event event) {
        HttpResponse<String> response = http.postJson("/v1/events", body);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        JsonNode receipt = HttpCalls.json(response);
        assertThat(receipt.get("topic").asText()).isEqualTo(topic);
        ConsumerRecord<String, byte[]> record = storedAt(receipt);
        assertThat(record.key()).isEqualTo(key);
        assertThat(Topics.EVENT_SERDE.decode(record.value())).isEqualTo(event);
    }

    @Test
    void idsGivenAsNumericStringsAreAccepted() {
        // Given
        String body = """
                {"type":"BlogPublished","eventId":"api-str-1","blogId":"102","authorId":"9223372036854775807","publishedAt":"2026-03-01T12:00:00Z"}""";

        // When
        HttpResponse<String> response = http.postJson("/v1/events", body);

        // Then
        assertThat(response.statusCode()).isEqualTo(202);
        ConsumerRecord<String, byte[]> record = storedAt(HttpCalls.json(response));
        assertThat(record.key()).isEqualTo("9223372036854775807");
        assertThat(Topics.EVENT_SERDE.decode(record.value()))
                .isEqualTo(new BlogPublished("api-str-1", 102, Long.MAX_VALUE, AT));
    }

    @Test
    void unknownFieldsAreIgnored() {
        // Given a newer client that sends fields this version does not know
        String body = """
                {"type":"BlogPublished","eventId":"api-new-1","blogId":103,"authorId":7,"publishedAt":"2026-03-01T12:00:00Z",
                 "title":"Hello","tags":["a","b"],"meta":{"v":2}}""";

        // When
        HttpResponse<String> response = http.postJson("/v1/events", body);

        // Then
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(Topics.EVENT_SERDE.decode(storedAt(HttpCalls.json(response)).value()))
                .isEqualTo(new BlogPublished("api-new-1", 103, 7, AT));
    }

    @Test
    void aCharsetParameterIsTakenAsJsonButAMissingContentTypeIsNot() {
        // Given
        byte[] body = """
                {"type":"Followed","eventId":"api-fol-1","followerId":55,"authorId":7,"at":"2026-03-01T12:00:00Z"}"""
                .getBytes(StandardCharsets.UTF_8);

        // When: without a Content-Type, as a browser may send a cross-site form without asking first
        HttpResponse<String> withCharset = http.post("/v1/events", "application/json; charset=utf-8", body);
        HttpResponse<String> withoutType = http.post("/v1/events", null, body);

        // Then
        assertThat(withCharset.statusCode()).isEqualTo(202);
        assertThat(HttpCalls.json(withCharset).get("topic").asText()).isEqualTo(topics.followEvents().name());
        assertThat(withoutType.statusCode()).as(withoutType.body()).isEqualTo(415);
        assertThat(withoutType.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(HttpCalls.json(withoutType).get("detail").asText()).contains("application/json");
    }

    @Test
    void livenessIsUp() {
        // When
        HttpResponse<String> response = producer.management("/health/live");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(HttpCalls.json(response).get("status").asText()).isEqualTo("UP");
    }

    @Test
    void readyWhenKafkaAnswersAndTheTopicsExist() {
        // When
        HttpResponse<String> response = producer.management("/health/ready");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(HttpCalls.json(response).get("status").asText()).isEqualTo("UP");
    }

    private static ConsumerRecord<String, byte[]> storedAt(JsonNode receipt) {
        ConsumerRecord<String, byte[]> record = KafkaRecords.at(
                receipt.get("topic").asText(), receipt.get("partition").asInt(), receipt.get("offset").asLong());
        assertThat(record.topic()).isEqualTo(receipt.get("topic").asText());
        return record;
    }
}
