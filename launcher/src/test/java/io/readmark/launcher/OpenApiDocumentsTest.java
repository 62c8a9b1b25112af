package io.readmark.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.json.Json;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Unfollowed;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The producer API's OpenAPI event schemas must say what the wire contract's JSON Schema files say. */
class OpenApiDocumentsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final List<Event> EXAMPLES = List.of(
            new BlogPublished("e1", 1001, 7, NOW), new BlogDeleted("e2", 1001, 7, NOW),
            new Followed("e3", 101, 7, NOW), new Unfollowed("e4", 101, 7, NOW),
            new BlogRead("e5", 101, 1001, 7, NOW), new AuthorReadAll("e6", 101, 7, NOW));

    private final ApiContract producer = ApiContract.of(resource("/io/readmark/producer/openapi.json"));

    @Test
    void shouldDescribeEveryEventWithTheFieldsOfItsJsonSchemaFile() {
        for (Event event : EXAMPLES) {
            JsonNode file = resource("/schemas/" + event.typeName() + ".schema.json");
            JsonNode component = producer.spec().path("components").path("schemas").path(event.typeName());
            assertThat(names(component.path("required"))).as(event.typeName() + " required").isEqualTo(names(file.path("required")));
            assertThat(fieldNames(component.path("properties"))).as(event.typeName() + " properties").isEqualTo(fieldNames(file.path("properties")));
        }
    }

    @Test
    void shouldAcceptEverySerialisedEventAndRejectANegativeId() {
        JsonNode eventSchema = Json.MAPPER.createObjectNode().put("$ref", "#/components/schemas/Event");
        for (Event event : EXAMPLES) {
            JsonNode json = Json.MAPPER.valueToTree(event);
            assertThat(producer.validate(eventSchema, json)).as(event.typeName()).isEmpty();
            JsonNode negative = ((com.fasterxml.jackson.databind.node.ObjectNode) json.deepCopy()).put("authorId", -1);
            assertThat(producer.validate(eventSchema, negative)).as(event.typeName() + " with authorId -1").isNotEmpty();
        }
    }

    private static Set<String> names(JsonNode array) {
        Set<String> names = new TreeSet<>();
        array.forEach(name -> names.add(name.asText()));
        return names;
    }

    private static Set<String> fieldNames(JsonNode object) {
        Set<String> names = new TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode resource(String name) {
        try (InputStream in = OpenApiDocumentsTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return Json.MAPPER.readTree(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
