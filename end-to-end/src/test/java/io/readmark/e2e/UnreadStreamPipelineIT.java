package io.readmark.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The unread stream end to end: events into Kafka, the processor's scripts change Redis and publish, the view API
 * pushes. Every kind of change arrives once, normal and big-V deliveries alike, with counts a following GET returns.
 */
class UnreadStreamPipelineIT {

    private static final Instant T = Instant.parse("2026-01-01T10:00:00Z");
    @AutoClose
    private static final HttpClient http = HttpClient.newHttpClient();
    @AutoClose
    private static PipelineFixture pipeline;

    @BeforeAll
    static void start() throws Exception {
        // Authors with more than two followers are fanned out on the big-V path.
        pipeline = PipelineFixture.start("stream", Map.of("PROCESSOR_BIGV_THRESHOLD", "2"));
    }

    /** The data of each {@code counts} event, in order, read by a thread of the HTTP client. */
    private static BlockingQueue<String> open(long userId) throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        HttpResponse<Stream<String>> response = http.send(HttpRequest.newBuilder(
                URI.create(pipeline.stack().viewApiUrl() + "/v1/users/" + userId + "/unread/stream")).GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        Thread.ofVirtual().start(() -> response.body().filter(line -> line.startsWith("data: "))
                .forEach(line -> events.add(line.substring(6))));
        return events;
    }

    private static JsonNode expectPush(BlockingQueue<String> events, long userId, String changes) throws Exception {
        String data = events.poll(30, TimeUnit.SECONDS);
        assertThat(data).as("a push within 30 s").isNotNull();
        ObjectNode body = (ObjectNode) Json.MAPPER.readTree(data);
        for (JsonNode change : body.get("changes")) ((ObjectNode) change).remove("version"); // numbered in view-api's tests
        assertThat(body.get("changes").toString()).isEqualTo(changes);
        body.remove("changes");
        assertThat(body).isEqualTo(pipeline.get("/v1/users/" + userId + "/unread"));
        return body;
    }

    @Test
    void shouldPushEveryKindOfChangeMadeThroughThePipeline() throws Exception {
        long user = pipeline.newId();
        long normal = pipeline.newId();
        long bigV = pipeline.newId();
        pipeline.produce(pipeline.followed(user, normal), pipeline.followed(user, bigV),
                pipeline.followed(pipeline.newId(), bigV), pipeline.followed(pipeline.newId(), bigV));

        BlockingQueue<String> events = open(user);
        assertThat(Json.MAPPER.readTree(events.poll(10, TimeUnit.SECONDS)).get("total").asLong()).isZero();

        long first = pipeline.newId();
        pipeline.produce(pipeline.published(first, normal, T));
        expectPush(events, user, "[{\"kind\":\"delivered\",\"authorId\":" + normal + ",\"blogId\":" + first + "}]");
        long big = pipeline.newId();
        pipeline.produce(pipeline.published(big, bigV, T.plusSeconds(1)));
        expectPush(events, user, "[{\"kind\":\"delivered\",\"authorId\":" + bigV + ",\"blogId\":" + big + "}]");
        pipeline.produce(pipeline.read(user, first, normal, T.plusSeconds(2)));
        expectPush(events, user, "[{\"kind\":\"read\",\"authorId\":" + normal + ",\"blogId\":" + first + "}]");
        pipeline.produce(pipeline.readAll(user, bigV, T.plusSeconds(3)));
        expectPush(events, user, "[{\"kind\":\"read-all\",\"authorId\":" + bigV + "}]");

        long deleted = pipeline.newId();
        pipeline.produce(pipeline.published(deleted, normal, T.plusSeconds(4)));
        expectPush(events, user, "[{\"kind\":\"delivered\",\"authorId\":" + normal + ",\"blogId\":" + deleted + "}]");
        pipeline.produce(pipeline.deleted(deleted, normal, T.plusSeconds(5)));
        expectPush(events, user, "[{\"kind\":\"removed\",\"authorId\":" + normal + ",\"blogId\":" + deleted + "}]");

        long last = pipeline.newId();
        pipeline.produce(pipeline.published(last, normal, T.plusSeconds(6)));
        expectPush(events, user, "[{\"kind\":\"delivered\",\"authorId\":" + normal + ",\"blogId\":" + last + "}]");
        pipeline.produce(pipeline.unfollowed(user, normal, T.plusSeconds(7)));
        JsonNode after = expectPush(events, user, "[{\"kind\":\"unfollowed\",\"authorId\":" + normal + "}]");
        assertThat(after.get("total").asLong()).isZero();
    }

    @Test
    void shouldPushEveryKindOfNoticeChangeMadeThroughThePipeline() throws Exception {
        long user = pipeline.newId();
        String audience = "team-" + pipeline.newId();
        BlockingQueue<String> events = open(user);
        assertThat(Json.MAPPER.readTree(events.poll(10, TimeUnit.SECONDS)).get("notices").asLong()).isZero();

        pipeline.produce(notice(audience, """
                {"type":"AudienceJoined","eventId":"j-%d","userId":%d,"audience":"%s","at":"%s"}""".formatted(user, user, audience, T)));
        expectPush(events, user, "[{\"kind\":\"joined\",\"audience\":\"" + audience + "\"}]");
        // The stream follows the audience it was told of: a broadcast to it is pushed
        long broadcast = pipeline.newId();
        pipeline.produce(notice(audience, """
                {"type":"NoticePublished","eventId":"p-%d","noticeId":%d,"audience":"%s","publishedAt":"%s"}"""
                .formatted(broadcast, broadcast, audience, T.plusSeconds(1))));
        JsonNode published = expectPush(events, user,
                "[{\"kind\":\"notice-published\",\"noticeId\":" + broadcast + ",\"audience\":\"" + audience + "\"}]");
        assertThat(published.get("notices").asLong()).isEqualTo(1);

        long targeted = pipeline.newId();
        pipeline.produce(notice(Long.toString(targeted), """
                {"type":"NoticeSent","eventId":"s-%d","noticeId":%d,"recipientIds":[%d],"sentAt":"%s"}"""
                .formatted(targeted, targeted, user, T.plusSeconds(2))));
        assertThat(expectPush(events, user, "[{\"kind\":\"notice\",\"noticeId\":" + targeted + "}]").get("notices").asLong()).isEqualTo(2);
        pipeline.produce(readEvent(user, """
                {"type":"NoticeRead","eventId":"r-%d","userId":%d,"noticeId":%d,"readAt":"%s"}""".formatted(targeted, user, targeted, T.plusSeconds(3))));
        assertThat(expectPush(events, user, "[{\"kind\":\"notice-read\",\"noticeId\":" + targeted + "}]").get("notices").asLong()).isEqualTo(1);
        pipeline.produce(notice(audience, """
                {"type":"NoticeWithdrawn","eventId":"w-%d","noticeId":%d,"audience":"%s","withdrawnAt":"%s"}"""
                .formatted(broadcast, broadcast, audience, T.plusSeconds(4))));
        assertThat(expectPush(events, user,
                "[{\"kind\":\"notice-withdrawn\",\"noticeId\":" + broadcast + ",\"audience\":\"" + audience + "\"}]")
                .get("notices").asLong()).isZero();

        // A notice that expires: no event says so, the stream reads again when it does
        long expiring = pipeline.newId();
        Instant now = Instant.now();
        pipeline.produce(notice(audience, """
                {"type":"NoticePublished","eventId":"p-%d","noticeId":%d,"audience":"%s","publishedAt":"%s","expiresAt":"%s"}"""
                .formatted(expiring, expiring, audience, now.minusSeconds(10), now.plusSeconds(3))));
        expectPush(events, user, "[{\"kind\":\"notice-published\",\"noticeId\":" + expiring + ",\"audience\":\"" + audience + "\"}]");
        assertThat(expectPush(events, user, "[{\"kind\":\"notice-expired\"}]").get("notices").asLong()).isZero();

        pipeline.produce(notice(audience, """
                {"type":"AudienceLeft","eventId":"l-%d","userId":%d,"audience":"%s","at":"%s"}""".formatted(user, user, audience, T.plusSeconds(5))));
        expectPush(events, user, "[{\"kind\":\"left\",\"audience\":\"" + audience + "\"}]");
    }

    private static PipelineFixture.WireEvent readEvent(long userId, String json) {
        return new PipelineFixture.WireEvent(pipeline.stack().topics().readEvents().name(), Long.toString(userId), json);
    }

    private static PipelineFixture.WireEvent notice(String key, String json) {
        return new PipelineFixture.WireEvent(pipeline.stack().topics().noticeEvents().name(), key, json);
    }
}
