package io.readmark.producer;

import io.readmark.schemas.Json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** Every kind of bad request gets a 4xx problem+json that says what to fix; none is a 500 or a hang. */
class ProducerApiBadInputIT {

    @AutoClose
    private static final ProducerApiFixture producer = ProducerApiFixture.start(ProducerApiBadInputIT.class);
    private static final HttpCalls http = producer.http;

    @Test
    void missingBlogIdIsNamed() {
        // When
        HttpResponse<String> response = http.postJson("/v1/events", """
                {"type":"BlogPublished","eventId":"bad-1","authorId":7,"publishedAt":"2026-03-01T12:00:00Z"}""");

        // Then
        assertBadRequest(response, "blogId");
    }

    @Test
    void negativeAuthorIdIsNamed() {
        // When
        HttpResponse<String> response = http.postJson("/v1/events", """
                {"type":"BlogPublished","eventId":"bad-2","blogId":1,"authorId":-7,"publishedAt":"2026-03-01T12:00:00Z"}""");

        // Then
        assertBadRequest(response, "authorId");
    }

    @Test
    void aFieldOfTheWrongTypeIsNamed() {
        // When an id is a boolean, or not a number at all
        HttpResponse<String> booleanId = http.postJson("/v1/events", """
                {"type":"BlogRead","eventId":"bad-3","userId":true,"blogId":1,"authorId":7,"readAt":"2026-03-01T12:00:00Z"}""");
        HttpResponse<String> wordId = http.postJson("/v1/events", """
                {"type":"BlogRead","eventId":"bad-4","userId":1,"blogId":"one","authorId":7,"readAt":"2026-03-01T12:00:00Z"}""");

        // Then
        assertBadRequest(booleanId, "userId");
        assertBadRequest(wordId, "blogId");
    }

    @Test
    void aBadBlogOfABlogsReadIsNamedByItsIndex() {
        // When the third blog has no valid id, or the list is empty
        HttpResponse<String> badItem = http.postJson("/v1/events", """
                {"type":"BlogsRead","eventId":"bad-6","userId":1,"readAt":"2026-03-01T12:00:00Z",
                 "blogs":[{"blogId":1,"authorId":7},{"blogId":2,"authorId":7},{"blogId":-3,"authorId":7}]}""");
        HttpResponse<String> empty = http.postJson("/v1/events", """
                {"type":"BlogsRead","eventId":"bad-7","userId":1,"readAt":"2026-03-01T12:00:00Z","blogs":[]}""");

        // Then
        assertBadRequest(badItem, "blogs[2].blogId");
        assertBadRequest(empty, "blogs");
    }

    @Test
    void aKeyGivenTwiceIsNamedNotOverwritten() {
        // When a field is given twice, where the last would otherwise win
        HttpResponse<String> response = http.postJson("/v1/events", """
                {"type":"BlogRead","eventId":"dup-1","userId":2,"userId":1,"blogId":1,"authorId":7,"readAt":"2026-03-01T12:00:00Z"}""");

        // Then
        JsonNode problem = assertBadRequest(response, "userId");
        assertThat(problem.get("detail").asText()).isEqualTo("userId: appears more than once");
    }

    @Test
    void anUnknownEventTypeNamesType() {
        // When
        HttpResponse<String> response = http.postJson("/v1/events", """
                {"type":"BlogLiked","eventId":"bad-5","blogId":1,"authorId":7}""");

        // Then
        JsonNode problem = assertBadRequest(response, "type");
        assertThat(problem.get("detail").asText()).contains("BlogLiked");
    }

    @Test
    void anEventDatedBeyondTheSkewNamesItsInstant() {
        // When a read-all would move the user's floor to the year 9999, or a notice is dated two hours ahead
        HttpResponse<String> farAhead = http.postJson("/v1/events", """
                {"type":"AllRead","eventId":"far-1","userId":101,"readAt":"9999-12-31T23:59:59Z"}""");
        HttpResponse<String> notice = http.postJson("/v1/events", """
                {"type":"NoticePublished","eventId":"far-2","noticeId":5,"audience":"staff","publishedAt":"%s"}"""
                .formatted(Instant.now().plus(Duration.ofHours(2))));

        // Then
        assertThat(assertBadRequest(farAhead, "readAt").get("detail").asText()).contains("9999-12-31T23:59:59Z", "PT1H");
        assertBadRequest(notice, "publishedAt");
    }

    @Test
    void eventsWithinTheSkewOrInThePastAreAccepted() {
        // Given
        Instant now = Instant.now();

        // When
        HttpResponse<String> soon = http.postJson("/v1/events", """
                {"type":"InboxSeen","eventId":"soon-1","userId":101,"seenAt":"%s"}""".formatted(now.plus(Duration.ofMinutes(30))));
        HttpResponse<String> imported = http.postJson("/v1/events", """
                {"type":"BlogPublished","eventId":"old-1","blogId":1,"authorId":7,"publishedAt":"2001-01-01T00:00:00Z"}""");
        HttpResponse<String> expiresLate = http.postJson("/v1/events", """
                {"type":"NoticePublished","eventId":"long-1","noticeId":6,"audience":"staff","publishedAt":"%s",
                 "expiresAt":"9999-12-31T23:59:59Z"}""".formatted(now));

        // Then
        assertThat(List.of(soon.statusCode(), imported.statusCode(), expiresLate.statusCode())).containsOnly(202);
    }

    @Test
    void aBatchRefusesOnlyItsEventDatedBeyondTheSkew() throws Exception {
        // When
        HttpResponse<String> response = http.postJson("/v1/events:batch", """
                [{"type":"AllRead","eventId":"b-far","userId":101,"readAt":"9999-12-31T23:59:59Z"},
                 {"type":"AllRead","eventId":"b-now","userId":101,"readAt":"%s"}]""".formatted(Instant.now()));

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode results = Json.MAPPER.readTree(response.body()).get("results");
        assertThat(results.get(0).get("status").asText()).isEqualTo("rejected");
        assertThat(results.get(0).get("field").asText()).isEqualTo("readAt");
        assertThat(results.get(1).get("status").asText()).isEqualTo("accepted");
    }

    @Test
    void malformedJsonIsABadRequestWithoutAField() {
        // When
        HttpResponse<String> notJson = http.postJson("/v1/events", "this is not JSON");
        HttpResponse<String> unquotedName = http.postJson("/v1/events", "{type: BlogPublished}");

        // Then
        assertBadRequest(notJson, null);
        assertBadRequest(unquotedName, null);
    }

    @Test
    void anEmptyBodyIsABadRequestWithoutAField() {
        // When
        HttpResponse<String> response = http.postJson("/v1/events", "");

        // Then
        assertBadRequest(response, null);
    }

    @Test
    void aJsonNullIsABadRequestWithoutAField() {
        // When
        HttpResponse<String> response = http.postJson("/v1/events", "null");

        // Then
        assertBadRequest(response, null);
    }

    @Test
    void aBodyOverTheLimitIsTooLarge() {
        // Given a valid event padded with an unknown field to 100 KB
        String padding = "x".repeat(100 * 1024);
        String body = """
                {"type":"BlogPublished","eventId":"big-1","blogId":1,"authorId":7,"publishedAt":"2026-03-01T12:00:00Z","pad":"%s"}"""
                .formatted(padding);

        // When
        HttpResponse<String> response = http.postJson("/v1/events", body);

        // Then
        assertProblem(response, 413);
    }

    @Test
    void plainTextIsAnUnsupportedMediaType() {
        // When
        HttpResponse<String> response = http.post("/v1/events", "text/plain",
                "{\"type\":\"BlogPublished\"}".getBytes(StandardCharsets.UTF_8));

        // Then
        JsonNode problem = assertProblem(response, 415);
        assertThat(problem.get("detail").asText()).contains("text/plain");
    }

    @Test
    void anUnknownPathIsNotFound() {
        // When / Then
        assertProblem(http.postJson("/v1/event", "{}"), 404);
        assertProblem(http.get("/v2/events"), 404);
    }

    @Test
    void readingTheEventsResourceIsNotAllowed() {
        // When
        assertProblem(http.get("/v1/events"), 405);
    }

        // Then
    private static JsonNode assertBadRequest(HttpResponse<String> response, String field) {
        JsonNode problem = assertProblem(response, 400);
        if (field == null) {
            assertThat(problem.has("field")).as("no field in %s", response.body()).isFalse();
        } else {
            assertThat(problem.path("field").asText()).as(response.body()).isEqualTo(field);
            assertThat(problem.get("detail").asText()).startsWith(field + ": ");
        }
        return problem;
    }

    private static JsonNode assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = HttpCalls.json(response);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("title").asText()).isNotBlank();
        assertThat(problem.get("detail").asText()).isNotBlank();
        return problem;
    }
}
