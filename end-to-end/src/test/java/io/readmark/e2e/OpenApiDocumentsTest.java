package io.readmark.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.AllRead;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.BlogsRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Followed;
import io.readmark.schemas.InboxSeen;
import io.readmark.schemas.AudienceJoined;
import io.readmark.schemas.AudienceLeft;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.NoticeWithdrawn;
import io.readmark.schemas.NoticesAllRead;
import io.readmark.schemas.Json;
import io.readmark.schemas.Unfollowed;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI documents agree with docs/API.md's operation tables, and the producer API's event schemas say what the wire
 * contract's JSON Schema files say.
 */
class OpenApiDocumentsTest {

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

    private static final Pattern OPERATION = Pattern.compile("`(GET|POST|PUT|PATCH|DELETE) (/[^`?]*)[^`]*`");

    private final ApiContract producer = ApiContract.of(resource("/io/readmark/producer/openapi.json"));
    private final ApiContract view = ApiContract.of(resource("/io/readmark/view/openapi.json"));

    @Test
    void shouldListInTheApiReferenceExactlyTheOperationsOfEachDocument() throws Exception {
        String api = Files.readString(Path.of("..", "docs", "API.md"));
        String producerTable = api.substring(api.indexOf("**Producer API**"), api.indexOf("**View API**"));
        String viewTable = api.substring(api.indexOf("**View API**"), api.indexOf("**The edge.**"));
        assertThat(operations(producerTable)).as("docs/API.md producer API").isEqualTo(new TreeSet<>(producer.operations()));
        assertThat(operations(viewTable)).as("docs/API.md view API").isEqualTo(new TreeSet<>(view.operations()));
    }

    @Test
    void shouldDescribeEveryEventWithTheFieldsOfItsJsonSchemaFile() {
        for (Event event : EXAMPLES) {
            JsonNode file = resource("/schemas/" + event.typeName() + ".schema.json");
            JsonNode component = producer.spec().path("components").path("schemas").path(event.typeName());
            assertThat(names(component.path("required"))).as(event.typeName() + " required").isEqualTo(names(file.path("required")));
            assertThat(fieldNames(component.path("properties"))).as(event.typeName() + " properties").isEqualTo(fieldNames(file.path("properties")));
            // A list of objects (BlogsRead's blogs): its items' fields too.
            file.path("properties").properties().stream().filter(field -> field.getValue().path("items").has("properties"))
                    .forEach(field -> {
                        JsonNode items = component.path("properties").path(field.getKey()).path("items");
                        JsonNode expected = field.getValue().path("items");
                        assertThat(names(items.path("required"))).as(field.getKey() + " items required")
                                .isEqualTo(names(expected.path("required")));
                        assertThat(fieldNames(items.path("properties"))).as(field.getKey() + " items properties")
                                .isEqualTo(fieldNames(expected.path("properties")));
                    });
        }
    }

    @Test
    void shouldAcceptEverySerialisedEventAndRejectANegativeId() {
        JsonNode eventSchema = Json.MAPPER.createObjectNode().put("$ref", "#/components/schemas/Event");
        for (Event event : EXAMPLES) {
            JsonNode json = Json.MAPPER.valueToTree(event);
            assertThat(producer.validate(eventSchema, json)).as(event.typeName()).isEmpty();
            String idField = json.has("authorId") ? "authorId" : json.has("userId") ? "userId" : "noticeId";
            JsonNode negative = ((com.fasterxml.jackson.databind.node.ObjectNode) json.deepCopy()).put(idField, -1);
            assertThat(producer.validate(eventSchema, negative)).as(event.typeName() + " with " + idField + " -1").isNotEmpty();
        }
    }

    private static Set<String> operations(String markdown) {
        Set<String> operations = new TreeSet<>();
        Matcher matcher = OPERATION.matcher(markdown);
        while (matcher.find()) operations.add(matcher.group(1) + " " + matcher.group(2));
        return operations;
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
