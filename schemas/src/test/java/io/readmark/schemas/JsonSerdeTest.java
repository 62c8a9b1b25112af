package io.readmark.schemas;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonSerdeTest {

    private final JsonSerde<Event> serde = Topics.EVENT_SERDE;

    private Event decode(String json) {
        return serde.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldDecodeEveryEventTypeOfTheWireContract() {
        assertThat(decode("""
                {"type":"BlogPublished","eventId":"e1","blogId":1001,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new BlogPublished("e1", 1001, 7, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"BlogDeleted","eventId":"e2","blogId":1001,"authorId":7,"deletedAt":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new BlogDeleted("e2", 1001, 7, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"Followed","eventId":"e3","followerId":101,"authorId":7,"at":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new Followed("e3", 101, 7, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"Unfollowed","eventId":"e4","followerId":101,"authorId":7,"at":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new Unfollowed("e4", 101, 7, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"BlogRead","eventId":"e5","userId":101,"blogId":1001,"authorId":7,"readAt":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new BlogRead("e5", 101, 1001, 7, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"AuthorReadAll","eventId":"e6","userId":101,"authorId":7,"readAt":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new AuthorReadAll("e6", 101, 7, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"AllRead","eventId":"e7","userId":101,"readAt":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new AllRead("e7", 101, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"InboxSeen","eventId":"e8","userId":101,"seenAt":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new InboxSeen("e8", 101, Instant.parse("2026-01-01T12:00:00Z")));
        assertThat(decode("""
                {"type":"BlogsRead","eventId":"e9","userId":101,"blogs":[{"blogId":1001,"authorId":7}],"readAt":"2026-01-01T12:00:00Z"}"""))
                .isEqualTo(new BlogsRead("e9", 101, java.util.List.of(new BlogsRead.Blog(1001, 7)), Instant.parse("2026-01-01T12:00:00Z")));
    }

    @Test
    void shouldAcceptNumericStringIdsAndIgnoreUnknownFields() {
        Event event = decode("""
                {"type":"BlogRead","eventId":"e","userId":"101","blogId":"9223372036854775807","authorId":7,
                 "readAt":"2026-01-01T12:00:00Z","client":"ios","extra":{"nested":[1,2]}}""");
        assertThat(event).isEqualTo(new BlogRead("e", 101, Long.MAX_VALUE, 7, Instant.parse("2026-01-01T12:00:00Z")));
    }

    @Test
    void shouldRoundTripThroughTheKafkaSerde() {
        Event event = new BlogPublished("e1", 1001, 7, Instant.parse("2026-01-01T12:00:00.123Z"));
        byte[] bytes = serde.serialize("blog-events", event);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("{\"type\":\"BlogPublished\"");
        assertThat(serde.deserialize("blog-events", bytes)).isEqualTo(event);
        assertThat(serde.serialize("t", null)).isNull();
        assertThat(serde.deserialize("t", null)).isNull();
    }

    @ParameterizedTest(name = "{0} -> field {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | is required",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":null,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | is required",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":-5,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | positive",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":0,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | positive",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":\"abc\",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":1.5,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":true,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":99999999999999999999,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":\"9223372036854775808\",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":\"+5\",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":\" 5\",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":\"5 \",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":\"05\",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":\"5.0\",\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | userId | 64-bit integer",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"+999999999-12-31T23:59:59Z\"}` | readAt | ISO-8601",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"-0001-01-01T00:00:00Z\"}` | readAt | ISO-8601",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"+10000-01-01T00:00:00Z\"}` | readAt | ISO-8601",
            "`{\"type\":\"BlogRead\",\"eventId\":5,\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | eventId | must be a string",
            "`{\"type\":\"BlogRead\",\"eventId\":true,\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | eventId | must be a string",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"yesterday\"}` | readAt | ISO-8601",
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":12345}` | readAt | ISO-8601",
            "`{\"type\":\"BlogRead\",\"eventId\":\"\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | eventId | non-empty",
            "`{\"type\":\"BlogRead\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\"}` | eventId | is required",
            "`{\"type\":\"Nope\",\"eventId\":\"e\"}` | type | unknown event type 'Nope'",
            "`{\"eventId\":\"e\",\"userId\":1}` | type | is required",
    })
    void shouldNameTheFieldThatBreaksTheContract(String json, String field, String reason) {
        assertThatThrownBy(() -> decode(json))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    if (reason != null) assertThat(e.reason()).contains(reason);
                });
    }

    @ParameterizedTest(name = "{0} -> field {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "`{\"type\":\"BlogRead\",\"eventId\":\"e\",\"userId\":1,\"blogId\":1,\"authorId\":7,\"readAt\":\"2026-01-01T12:00:00Z\",\"userId\":2}` | userId",
            "`{\"type\":\"BlogRead\",\"type\":\"AllRead\",\"eventId\":\"e\",\"userId\":1,\"readAt\":\"2026-01-01T12:00:00Z\"}` | type",
            "`{\"type\":\"AllRead\",\"eventId\":\"e\",\"eventId\":\"f\",\"userId\":1,\"readAt\":\"2026-01-01T12:00:00Z\"}` | eventId",
            "`{\"type\":\"AllRead\",\"eventId\":\"e\",\"userId\":1,\"readAt\":\"2026-01-01T12:00:00Z\",\"client\":1,\"client\":2}` | client",
    })
    void shouldRejectAKeyGivenTwiceRatherThanLetTheLastWin(String json, String field) {
        assertThatThrownBy(() -> decode(json)).isInstanceOfSatisfying(InvalidEventException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.reason()).isEqualTo("appears more than once");
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {"`not json`", "`[1,2]`", "`\"text\"`", "`{\"type\":\"BlogRead\"`", "`{} {}`"})
    void shouldRejectPayloadsThatAreNotOneJsonObject(String payload) {
        assertThatThrownBy(() -> decode(payload)).isInstanceOf(InvalidEventException.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "`null` | null", "`\"text\"` | a string", "`42` | a number", "`true` | a boolean", "`[{}]` | an array"})
    void shouldRejectJsonThatIsNotAnObjectAsAWholeAndSayWhatItWas(String payload, String found) {
        assertThatThrownBy(() -> decode(payload)).isInstanceOfSatisfying(InvalidEventException.class, e -> {
            assertThat(e.field()).as("the payload as a whole, not a field").isNull();
            assertThat(e.reason()).isEqualTo("expected one JSON object, found " + found);
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {"`{\"type\":\"Blog`", "`{\"type\":\"BlogRead\",\"userId\":12`", "`{\"type\":`"})
    void shouldRejectACutOffPayloadAsAWhole(String payload) {
        assertThatThrownBy(() -> decode(payload)).isInstanceOfSatisfying(InvalidEventException.class, e -> {
            assertThat(e.field()).isNull();
            assertThat(e.reason()).contains("ends in the middle");
        });
    }

    @Test
    void shouldAcceptTheEdgesOfTheRanges() {
        assertThat(decode("""
                {"type":"BlogRead","eventId":"e","userId":"9223372036854775807","blogId":1,"authorId":7,"readAt":"9999-12-31T23:59:59Z"}"""))
                .isEqualTo(new BlogRead("e", Long.MAX_VALUE, 1, 7, Instant.parse("9999-12-31T23:59:59Z")));
        assertThat(((BlogRead) decode("""
                {"type":"BlogRead","eventId":"e","userId":1,"blogId":1,"authorId":7,"readAt":"0000-01-01T00:00:00Z"}""")).readAt())
                .isEqualTo(Instant.parse("0000-01-01T00:00:00Z"));
    }

    @Test
    void shouldRejectAnEmptyPayload() {
        assertThatThrownBy(() -> serde.decode(new byte[0])).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("empty");
    }

    @Test
    void shouldWrapFailuresAsSerializationExceptionsForKafka() {
        assertThatThrownBy(() -> serde.deserialize("blog-events", "oops".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerializationException.class).hasMessageContaining("blog-events");
    }

    @Test
    void shouldRefuseToBuildAnInvalidEventInCode() {
        assertThatThrownBy(() -> new BlogPublished("e", -1, 7, Instant.now()))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.field()).isEqualTo("blogId"));
    }
}
