package io.readmark.producer;

import io.readmark.testing.KafkaRecords;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Topic;
import io.readmark.schemas.Topics;

/** {@code POST /v1/events:batch} against a real broker: each event's own outcome, and what really was stored. */
class ProducerApiBatchIT {

    @AutoClose
    private static final ProducerApiFixture producer = ProducerApiFixture.start(ProducerApiBatchIT.class,
            config -> batchLimits(config, Duration.ofSeconds(10)));
    private static final HttpCalls http = producer.http;
    private static final Topics topics = producer.topics;

    private static final String BATCH = "/v1/events:batch";
    private static final String NDJSON = "application/x-ndjson";
    private static final String AT_TEXT = "2026-03-01T12:00:00Z";
    private static final Instant AT = Instant.parse(AT_TEXT);
    private static final int MAX_EVENTS = 50;
    private static final int MAX_BYTES = 16 * 1024;

    @Test
    void aMixedArrayStoresEveryGoodEventAndRejectsEveryBadOneInInputOrder() {
        // Given good events of every topic between events that break the contract in different ways
        String body = "[" + String.join(",",
                published("mix-1", 101, 7),
                """
                {"type":"BlogPublished","eventId":"mix-2","authorId":7,"publishedAt":"%s"}""".formatted(AT_TEXT),
                followed("mix-3", 55, 7),
                "42",
                blogRead("mix-5", 300, 101, 7),
                """
                {"type":"BlogLiked","eventId":"mix-6","blogId":1,"authorId":7}""",
                "null",
                """
                {"type":"BlogRead","eventId":"mix-8","userId":true,"blogId":1,"authorId":7,"readAt":"%s"}""".formatted(AT_TEXT))
                + "]";

        // When
        HttpResponse<String> response = http.postJson(BATCH, body);

        // Then the summary counts each outcome
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.headers().firstValue("Retry-After")).isEmpty();
        JsonNode result = HttpCalls.json(response);
        assertThat(fieldNames(result)).containsExactly("accepted", "rejected", "forbidden", "unavailable", "results");
        assertThat(result.get("accepted").asInt()).isEqualTo(3);
        assertThat(result.get("rejected").asInt()).isEqualTo(5);
        assertThat(result.get("unavailable").asInt()).isZero();
        JsonNode results = result.get("results");
        assertThat(results).hasSize(8);
        for (int i = 0; i < 8; i++) assertThat(results.get(i).get("index").asInt()).isEqualTo(i);

        // And every good event is in Kafka where its result says, keyed as the contract says
        assertAccepted(results.get(0), "mix-1", topics.blogEvents(), "7", new BlogPublished("mix-1", 101, 7, AT));
        assertAccepted(results.get(2), "mix-3", topics.followEvents(), "7", new Followed("mix-3", 55, 7, AT));
        assertAccepted(results.get(4), "mix-5", topics.readEvents(), "300", new BlogRead("mix-5", 300, 101, 7, AT));

        // And every bad one names what to fix, with its eventId when it has one
        assertRejected(results.get(1), "mix-2", "blogId");
        assertRejected(results.get(3), null, null);
        assertRejected(results.get(5), "mix-6", "type");
        assertRejected(results.get(6), null, null);
        assertRejected(results.get(7), "mix-8", "userId");
        assertThat(results.get(5).get("detail").asText()).contains("BlogLiked");
        assertThat(results.get(3).get("detail").asText()).isEqualTo("expected one JSON object, found a number");
        assertThat(results.get(6).get("detail").asText()).isEqualTo("expected one JSON object, found null");
    }

    @Test
    void anItemWithAKeyGivenTwiceIsRejectedAloneInEitherFormat() {
        // Given an event that names its user twice, between two good ones
        String twice = """
                {"type":"BlogRead","eventId":"dup-2","userId":2,"userId":1,"blogId":1,"authorId":7,"readAt":"%s"}""".formatted(AT_TEXT);

        // When
        JsonNode array = HttpCalls.json(http.postJson(BATCH, "[" + published("dup-1", 401, 7) + ", " + twice + " ,"
                + published("dup-3", 402, 7) + "]")).get("results");
        JsonNode lines = HttpCalls.json(http.post(BATCH, NDJSON, (twice + "\n" + published("dup-4", 403, 7))
                .getBytes(StandardCharsets.UTF_8))).get("results");

        // Then
        assertAccepted(array.get(0), "dup-1", topics.blogEvents(), "7", new BlogPublished("dup-1", 401, 7, AT));
        assertRejected(array.get(1), "dup-2", "userId");
        assertAccepted(array.get(2), "dup-3", topics.blogEvents(), "7", new BlogPublished("dup-3", 402, 7, AT));
        assertRejected(lines.get(0), "dup-2", "userId");
        assertThat(lines.get(0).get("detail").asText()).isEqualTo("userId: appears more than once");
        assertAccepted(lines.get(1), "dup-4", topics.blogEvents(), "7", new BlogPublished("dup-4", 403, 7, AT));
    }

    @Test
    void aRejectedItemEchoesAnEventIdOfTheContractWholeAndOnlyAShortPrefixOfALongerOne() {
        // Given two events with a bad blogId: one with the longest eventId allowed, one with a far longer one
        String longest = "a".repeat(200);
        String huge = "b".repeat(10_000);
        String body = "[" + String.join(",", published(longest, -1, 7), published(huge, -1, 7)) + "]";

        // When
        JsonNode results = HttpCalls.json(http.postJson(BATCH, body)).get("results");

        // Then the client can match the first by its eventId, and the second is not sent back whole
        assertRejected(results.get(0), longest, "blogId");
        assertThat(results.get(1).get("eventId").asText()).isEqualTo("b".repeat(32) + "…");
    }

    @Test
    void noticeEventsInABatchGoToTheNoticeTopicOrToReadEventsAndABadAudienceIsRejected() {
        String body = "[" + String.join(",",
                """
                {"type":"NoticePublished","eventId":"bn-1","noticeId":601,"audience":"everyone","publishedAt":"%s"}""".formatted(AT_TEXT),
                """
                {"type":"NoticeSent","eventId":"bn-2","noticeId":602,"recipientIds":[301,302],"sentAt":"%s"}""".formatted(AT_TEXT),
                """
                {"type":"NoticeRead","eventId":"bn-3","userId":301,"noticeId":602,"readAt":"%s"}""".formatted(AT_TEXT),
                """
                {"type":"AudienceLeft","eventId":"bn-4","userId":301,"audience":"Not An Audience","at":"%s"}""".formatted(AT_TEXT))
                + "]";

        HttpResponse<String> response = http.postJson(BATCH, body);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode results = HttpCalls.json(response).get("results");
        assertAccepted(results.get(0), "bn-1", topics.noticeEvents(), "everyone", new NoticePublished("bn-1", 601, "everyone", AT));
        assertAccepted(results.get(1), "bn-2", topics.noticeEvents(), "602", new NoticeSent("bn-2", 602, List.of(301L, 302L), AT));
        assertAccepted(results.get(2), "bn-3", topics.readEvents(), "301", new NoticeRead("bn-3", 301, 602, AT));
        assertRejected(results.get(3), "bn-4", "audience");
    }

    @Test
    void ndjsonStoresEachGoodLineAndRejectsOnlyTheBadOnes() {
        // Given an invalid event, blank lines, a line that is no JSON and Windows line ends; blank lines are not events
        String body = published("nd-1", 201, 8) + "\n"
                + """
                {"type":"BlogPublished","eventId":"nd-2","blogId":-1,"authorId":8,"publishedAt":"%s"}""".formatted(AT_TEXT) + "\n"
                + "\n"
                + "   \r\n"
                + "this is not JSON\r\n"
                + published("nd-4", 202, 8) + "\r\n";

        // When
        HttpResponse<String> response = http.post(BATCH, NDJSON, body.getBytes(StandardCharsets.UTF_8));

        // Then
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode result = HttpCalls.json(response);
        assertThat(result.get("accepted").asInt()).isEqualTo(2);
        assertThat(result.get("rejected").asInt()).isEqualTo(2);
        JsonNode results = result.get("results");
        assertThat(results).hasSize(4);
        assertAccepted(results.get(0), "nd-1", topics.blogEvents(), "8", new BlogPublished("nd-1", 201, 8, AT));
        assertRejected(results.get(1), "nd-2", "blogId");
        assertRejected(results.get(2), null, null);
        assertAccepted(results.get(3), "nd-4", topics.blogEvents(), "8", new BlogPublished("nd-4", 202, 8, AT));
        assertThat(results.get(3).get("index").asInt()).isEqualTo(3);
    }

    @Test
    void eventsOfOneKeyAreStoredInTheirBatchOrder() {
        // Given publishes and deletes of two authors, interleaved
        List<String> events = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            long author = i % 2 == 0 ? 42 : 43;
            events.add(i % 3 == 0
                    ? """
                    {"type":"BlogDeleted","eventId":"ord-%d","blogId":%d,"authorId":%d,"deletedAt":"%s"}""".formatted(i, i, author, AT_TEXT)
                    : published("ord-" + i, i, author));
        }

        // When
        HttpResponse<String> response = http.postJson(BATCH, "[" + String.join(",", events) + "]");

        // Then every event of an author is on one partition, at offsets rising in batch order
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode results = HttpCalls.json(response).get("results");
        assertThat(results).hasSize(20).allSatisfy(item -> assertThat(item.get("status").asText()).isEqualTo("accepted"));
        for (int parity = 0; parity < 2; parity++) {
            int ofAuthor = parity;
            List<JsonNode> stored = IntStream.range(0, 20).filter(i -> i % 2 == ofAuthor).mapToObj(results::get).toList();
            assertThat(stored).extracting(item -> item.get("partition").asInt())
                    .containsOnly(stored.get(0).get("partition").asInt());
            assertThat(stored).extracting(item -> item.get("offset").asLong()).isSorted().doesNotHaveDuplicates();
        }
        // And what is stored at the last offset is the last event of that author
        JsonNode last = results.get(19);
        assertThat(Topics.EVENT_SERDE.decode(storedAt(last).value())).isEqualTo(new BlogPublished("ord-20", 20, 42, AT));
    }

    @Test
    void aCharsetParameterIsTakenAsJsonButAMissingContentTypeIsNot() {
        // Given
        byte[] body = ("[" + published("ct-1", 301, 9) + "]").getBytes(StandardCharsets.UTF_8);

        // When
        HttpResponse<String> withoutType = http.post(BATCH, null, body);
        HttpResponse<String> withCharset = http.post(BATCH, "application/json; charset=utf-8", body);

        // Then
        assertThat(assertProblem(withoutType, 415).get("detail").asText()).contains("application/json");
        assertThat(withCharset.statusCode()).as(withCharset.body()).isEqualTo(200);
        assertThat(HttpCalls.json(withCharset).get("accepted").asInt()).isEqualTo(1);
    }

    @Test
    void moreEventsThanTheLimitIsTooLargeNamingTheLimit() {
        // Given one event more than the limit, as an array and as NDJSON
        List<String> events = IntStream.rangeClosed(0, MAX_EVENTS).mapToObj(i -> published("many-" + i, i + 1, 7)).toList();

        // When
        HttpResponse<String> array = http.postJson(BATCH, "[" + String.join(",", events) + "]");
        HttpResponse<String> lines = http.post(BATCH, NDJSON, String.join("\n", events).getBytes(StandardCharsets.UTF_8));

        // Then
        assertThat(assertProblem(array, 413).get("detail").asText()).contains(Integer.toString(MAX_EVENTS));
        assertThat(assertProblem(lines, 413).get("detail").asText()).contains(Integer.toString(MAX_EVENTS));
    }

    @Test
    void aBodyOverTheByteLimitIsTooLarge() {
        // Given a few events padded with an unknown field beyond the byte limit
        String padded = """
                {"type":"BlogPublished","eventId":"big-1","blogId":1,"authorId":7,"publishedAt":"%s","pad":"%s"}"""
                .formatted(AT_TEXT, "x".repeat(MAX_BYTES));

        // When
        HttpResponse<String> response = http.postJson(BATCH, "[" + padded + "]");

        // Then
        assertThat(assertProblem(response, 413).get("detail").asText()).contains(Integer.toString(MAX_BYTES));
    }

    @Test
    void anyOtherMediaTypeIsUnsupported() {
        // When
        byte[] body = ("[" + published("txt-1", 1, 7) + "]").getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = http.post(BATCH, "text/plain", body);

        // Then
        JsonNode problem = assertProblem(response, 415);
        assertThat(problem.get("detail").asText()).contains("text/plain").contains("application/x-ndjson");
    }

    @Test
    void aBodyThatIsNoArrayOfEventsIsABadRequest() {
        // When
        HttpResponse<String> object = http.postJson(BATCH, published("obj-1", 1, 7));
        HttpResponse<String> number = http.postJson(BATCH, "42");
        HttpResponse<String> truncated = http.postJson(BATCH, "[" + published("cut-1", 1, 7) + ",{\"type\":");
        HttpResponse<String> emptyArray = http.postJson(BATCH, " [ ] ");
        HttpResponse<String> emptyBody = http.postJson(BATCH, "");
        HttpResponse<String> blankLines = http.post(BATCH, NDJSON, "\n  \n\r\n".getBytes(StandardCharsets.UTF_8));

        // Then
        assertThat(assertProblem(object, 400).get("detail").asText()).contains("expected a JSON array").contains("object");
        assertThat(assertProblem(number, 400).get("detail").asText()).contains("expected a JSON array").contains("number");
        assertThat(assertProblem(truncated, 400).get("detail").asText()).contains("not valid JSON");
        assertThat(assertProblem(emptyArray, 400).get("detail").asText()).contains("empty");
        assertThat(assertProblem(emptyBody, 400).get("detail").asText()).contains("empty");
        assertThat(assertProblem(blankLines, 400).get("detail").asText()).contains("empty");
    }

    @Test
    void theBatchResourceIsItsOwnPathBesideTheSingleEventOne() {
        // When
        HttpResponse<String> read = http.get(BATCH);
        HttpResponse<String> single = http.postJson("/v1/events", published("beside-1", 1, 7));

        // Then
        assertProblem(read, 405);
        assertThat(single.statusCode()).as(single.body()).isEqualTo(202);
    }

    @Test
    void eventsKafkaCannotStoreAreUnavailableWhileTheOthersAreAccepted() throws Exception {
        // Given an API whose read-events topic does not exist, so Kafka can never take a read event
        Topics readTopicMissing = Topics.named(topics.blogEvents().name(), topics.followEvents().name(),
                "producerapibatchit.never-created-read", topics.deadLetters().name());
        ProducerApiConfig config = config(KafkaRecords.bootstrap(), readTopicMissing, Duration.ofSeconds(3));
        try (ProducerApi partial = ProducerApi.start(config);
             HttpCalls partialHttp = new HttpCalls(partial.port())) {
            String body = "[" + published("part-1", 401, 7) + "," + blogRead("part-2", 300, 401, 7) + "]";

            // When
            HttpResponse<String> response = partialHttp.postJson(BATCH, body);

            // Then the stored event is accepted, the other is retryable, and the client is told when to retry
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
            JsonNode result = HttpCalls.json(response);
            assertThat(result.get("accepted").asInt()).isEqualTo(1);
            assertThat(result.get("unavailable").asInt()).isEqualTo(1);
            JsonNode results = result.get("results");
            assertAccepted(results.get(0), "part-1", topics.blogEvents(), "7", new BlogPublished("part-1", 401, 7, AT));
            JsonNode unavailable = results.get(1);
            assertThat(fieldNames(unavailable)).containsExactly("index", "status", "eventId", "detail");
            assertThat(unavailable.get("index").asInt()).isEqualTo(1);
            assertThat(unavailable.get("status").asText()).isEqualTo("unavailable");
            assertThat(unavailable.get("eventId").asText()).isEqualTo("part-2");
            assertThat(unavailable.get("detail").asText()).startsWith("Kafka did not").contains("retry with the same eventId");
        }
    }

    @Test
    void unreachableKafkaIsA503WithRetryAfterWithinTheAckTimeoutNotOnePerEvent() throws Exception {
        // Given an API whose Kafka is a port nothing listens on, a 1 s ack timeout, and 20 events plus a bad one:
        // waiting the ack timeout once per event would take 20 s
        String nowhere = "127.0.0.1:" + KafkaRecords.unusedLocalPort();
        String body = IntStream.rangeClosed(1, 20).mapToObj(i -> published("down-" + i, i, 7))
                .collect(Collectors.joining(",", "[", ",{\"type\":\"BlogPublished\"}]"));
        try (ProducerApi down = ProducerApi.start(config(nowhere, topics, Duration.ofSeconds(1)));
             HttpCalls downHttp = new HttpCalls(down.port())) {

            // When
            long started = System.nanoTime();
            HttpResponse<String> response = downHttp.postJson(BATCH, body);
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            // Then
            JsonNode problem = assertProblem(response, 503);
            assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(problem.get("title").asText()).isEqualTo("Kafka unavailable");
            assertThat(problem.get("detail").asText()).contains("retry with the same eventIds");
            assertThat(took).isLessThan(Duration.ofSeconds(5));
        }
    }

    private static ProducerApiConfig config(String bootstrap, Topics topics, Duration ackTimeout) {
        return batchLimits(ProducerApiConfig.onLoopback(bootstrap, topics), ackTimeout);
    }

    private static ProducerApiConfig batchLimits(ProducerApiConfig config, Duration ackTimeout) {
        return config.withAckTimeout(ackTimeout).withMaxBatchEvents(MAX_EVENTS).withMaxBatchBytes(MAX_BYTES);
    }

    private static String published(String eventId, long blogId, long authorId) {
        return """
                {"type":"BlogPublished","eventId":"%s","blogId":%d,"authorId":%d,"publishedAt":"%s"}"""
                .formatted(eventId, blogId, authorId, AT_TEXT);
    }

    private static String followed(String eventId, long followerId, long authorId) {
        return """
                {"type":"Followed","eventId":"%s","followerId":%d,"authorId":%d,"at":"%s"}"""
                .formatted(eventId, followerId, authorId, AT_TEXT);
    }

    private static String blogRead(String eventId, long userId, long blogId, long authorId) {
        return """
                {"type":"BlogRead","eventId":"%s","userId":%d,"blogId":%d,"authorId":%d,"readAt":"%s"}"""
                .formatted(eventId, userId, blogId, authorId, AT_TEXT);
    }

    private static void assertAccepted(JsonNode item, String eventId, Topic topic, String key,
                                       Event expected) {
        assertThat(fieldNames(item)).containsExactly("index", "status", "eventId", "topic", "partition", "offset");
        assertThat(item.get("status").asText()).isEqualTo("accepted");
        assertThat(item.get("eventId").asText()).isEqualTo(eventId);
        assertThat(item.get("topic").asText()).isEqualTo(topic.name());
        ConsumerRecord<String, byte[]> record = storedAt(item);
        assertThat(record.key()).isEqualTo(key);
        assertThat(Topics.EVENT_SERDE.decode(record.value())).isEqualTo(expected);
    }

    private static void assertRejected(JsonNode item, String eventId, String field) {
        assertThat(fieldNames(item)).containsExactly("index", "status", "eventId", "field", "detail");
        assertThat(item.get("status").asText()).isEqualTo("rejected");
        assertThat(item.get("eventId").isNull() ? null : item.get("eventId").asText()).isEqualTo(eventId);
        assertThat(item.get("field").isNull() ? null : item.get("field").asText()).isEqualTo(field);
        assertThat(item.get("detail").asText()).isNotBlank();
        if (field != null) assertThat(item.get("detail").asText()).startsWith(field + ": ");
    }

    private static ConsumerRecord<String, byte[]> storedAt(JsonNode item) {
        return KafkaRecords.at(item.get("topic").asText(), item.get("partition").asInt(), item.get("offset").asLong());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = HttpCalls.json(response);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("detail").asText()).isNotBlank();
        return problem;
    }
}
