package io.readmark.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code BlogsRead}: its list of blogs, bounded, each item checked and named by index in serde and schema alike. */
class BlogsReadTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final String ITEM = "{\"blogId\":1001,\"authorId\":7}";

    @Test
    void shouldDecodeNumericStringIdsAndKeepDuplicatesInOrder() {
        Event event = decode(json("[{\"blogId\":\"1001\",\"authorId\":\"7\",\"extra\":1}," + ITEM + ",{\"blogId\":1002,\"authorId\":8}]"));

        assertThat(event).isEqualTo(new BlogsRead("e", 101,
                List.of(new BlogsRead.Blog(1001, 7), new BlogsRead.Blog(1001, 7), new BlogsRead.Blog(1002, 8)), NOW));
        assertThat(((BlogsRead) event).reads()).containsExactly(new BlogRead("e", 101, 1001, 7, NOW),
                new BlogRead("e", 101, 1001, 7, NOW), new BlogRead("e", 101, 1002, 8, NOW));
    }

    @Test
    void shouldWriteOnlyItsFields() {
        JsonNode json = Json.MAPPER.valueToTree(new BlogsRead("e", 101, List.of(new BlogsRead.Blog(1001, 7)), NOW));

        assertThat(json.toString()).isEqualTo("{\"type\":\"BlogsRead\",\"eventId\":\"e\",\"userId\":101,"
                + "\"blogs\":[{\"blogId\":1001,\"authorId\":7}],\"readAt\":\"2026-01-01T12:00:00Z\"}");
    }

    @Test
    void shouldAcceptAHundredBlogsInSchemaAndSerdeAlike() throws Exception {
        String hundred = "[" + String.join(",", Collections.nCopies(BlogsRead.MAX_BLOGS, ITEM)) + "]";

        assertThat(schema().validate(Json.MAPPER.readTree(json(hundred)))).isEmpty();
        assertThat(((BlogsRead) decode(json(hundred))).blogs()).hasSize(100);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "`[]` | blogs",
            "`null` | blogs",
            "`{\"blogId\":1,\"authorId\":7}` | blogs",
            "`[null]` | blogs[0]",
            "`[5]` | blogs[0]",
            "`[{\"blogId\":1,\"authorId\":7},{\"blogId\":0,\"authorId\":7}]` | blogs[1].blogId",
            "`[{\"blogId\":1,\"authorId\":7},{\"blogId\":2,\"authorId\":7},{\"blogId\":3,\"authorId\":-7}]` | blogs[2].authorId",
            "`[{\"blogId\":1,\"authorId\":7},{\"blogId\":\"x1\",\"authorId\":7}]` | blogs[1].blogId",
            "`[{\"blogId\":1,\"authorId\":7},{\"blogId\":\"01\",\"authorId\":7}]` | blogs[1].blogId",
            "`[{\"blogId\":1.5,\"authorId\":7}]` | blogs[0].blogId",
            "`[{\"blogId\":1}]` | blogs[0].authorId",
    })
    void shouldNameTheBadPartInSchemaAndSerdeAlike(String blogs, String field) throws Exception {
        String json = json(blogs);

        assertThat(schema().validate(Json.MAPPER.readTree(json))).as("the schema refuses " + blogs).isNotEmpty();
        assertThatThrownBy(() -> decode(json)).isInstanceOfSatisfying(InvalidEventException.class,
                e -> assertThat(e.field()).isEqualTo(field));
    }

    @Test
    void shouldRefuseMoreThanAHundredBlogs() throws Exception {
        String tooMany = json("[" + String.join(",", Collections.nCopies(BlogsRead.MAX_BLOGS + 1, ITEM)) + "]");

        assertThat(schema().validate(Json.MAPPER.readTree(tooMany))).isNotEmpty();
        assertThatThrownBy(() -> decode(tooMany)).isInstanceOfSatisfying(InvalidEventException.class, e -> {
            assertThat(e.field()).isEqualTo("blogs");
            assertThat(e.reason()).contains("at most 100");
        });
    }

    private static String json(String blogs) {
        return "{\"type\":\"BlogsRead\",\"eventId\":\"e\",\"userId\":101,\"blogs\":" + blogs + ",\"readAt\":\"2026-01-01T12:00:00Z\"}";
    }

    private static Event decode(String json) {
        return Topics.EVENT_SERDE.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonSchema schema() throws Exception {
        try (InputStream in = BlogsReadTest.class.getResourceAsStream("/schemas/BlogsRead.schema.json")) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }
}
