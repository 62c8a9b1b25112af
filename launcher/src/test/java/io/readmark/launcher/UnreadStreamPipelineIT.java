package io.readmark.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.AfterAll;
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
    private static final HttpClient http = HttpClient.newHttpClient();
    private static PipelineFixture pipeline;

    @BeforeAll
    static void start() throws Exception {
        // Authors with more than two followers are fanned out on the big-V path.
        pipeline = PipelineFixture.start("stream", Map.of("PROCESSOR_BIGV_THRESHOLD", "2"));
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) pipeline.close();
        http.close();
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
}
