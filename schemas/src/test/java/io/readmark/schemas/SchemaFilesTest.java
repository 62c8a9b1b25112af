package io.readmark.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JSON Schema files are the reference for other clients: they must agree with what the serde accepts. */
class SchemaFilesTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final List<Event> EXAMPLES = List.of(
            new BlogPublished("e1", 1001, 7, NOW), new BlogDeleted("e2", 1001, 7, NOW),
            new Followed("e3", 101, 7, NOW), new Unfollowed("e4", 101, 7, NOW),
            new BlogRead("e5", 101, 1001, 7, NOW), new AuthorReadAll("e6", 101, 7, NOW),
            new AllRead("e7", 101, NOW), new InboxSeen("e8", 101, NOW),
            new NoticePublished("e9", 501, "everyone", NOW, NOW.plusSeconds(60)), new NoticeWithdrawn("e10", 501, "staff", NOW),
            new AudienceJoined("e11", 101, "staff", NOW), new AudienceLeft("e12", 101, "staff", NOW),
            new NoticeSent("e13", 502, List.of(101L, 102L), NOW), new NoticeRead("e14", 101, 501, NOW),
            new NoticesAllRead("e15", 101, NOW),
            new BlogsRead("e16", 101, List.of(new BlogsRead.Blog(1001, 7), new BlogsRead.Blog(1002, 8)), NOW));

    private static final java.util.Set<String> OPTIONAL = java.util.Set.of("expiresAt");

    @Test
    void shouldAcceptEverySerialisedEventUnderItsOwnSchema() throws Exception {
        for (Event event : EXAMPLES) {
            JsonNode json = Json.MAPPER.valueToTree(event);
            assertThat(schemaFor(event.typeName()).validate(json)).as(event.typeName()).isEmpty();
        }
    }

    @Test
    void shouldRejectInSchemaAndSerdeAlikeWhenARequiredFieldIsMissingOrNotAPositiveId() throws Exception {
        for (Event event : EXAMPLES) {
            JsonSchema schema = schemaFor(event.typeName());
            JsonNode valid = Json.MAPPER.valueToTree(event);
            for (var names = valid.fieldNames(); names.hasNext(); ) {
                String field = names.next();
                var missing = valid.deepCopy();
                ((com.fasterxml.jackson.databind.node.ObjectNode) missing).remove(field);
                if (OPTIONAL.contains(field)) {
                    assertThat(schema.validate(missing)).as(event.typeName() + " without optional " + field).isEmpty();
                    assertThat(Topics.EVENT_SERDE.decode(bytes(missing))).isNotNull();
                    continue;
                }
                assertThat(schema.validate(missing)).as(event.typeName() + " without " + field).isNotEmpty();
                assertThatThrownBy(() -> Topics.EVENT_SERDE.decode(bytes(missing))).isInstanceOf(InvalidEventException.class);

                if (field.endsWith("Id") && !field.equals("eventId")) {
                    var negative = ((com.fasterxml.jackson.databind.node.ObjectNode) valid.deepCopy()).put(field, -3);
                    assertThat(schema.validate(negative)).as(event.typeName() + " negative " + field).isNotEmpty();
                    assertThatThrownBy(() -> Topics.EVENT_SERDE.decode(bytes(negative))).isInstanceOf(InvalidEventException.class);
                }
            }
        }
    }

    private static byte[] bytes(JsonNode json) throws Exception {
        return Json.MAPPER.writeValueAsString(json).getBytes(StandardCharsets.UTF_8);
    }

    private static JsonSchema schemaFor(String type) throws Exception {
        try (InputStream in = SchemaFilesTest.class.getResourceAsStream("/schemas/" + type + ".schema.json")) {
            assertThat(in).as("schema file for " + type).isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }
}
