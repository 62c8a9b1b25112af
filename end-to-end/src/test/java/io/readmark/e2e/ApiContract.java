package io.readmark.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.readmark.schemas.Json;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An API's served OpenAPI document used as an oracle: a real response must be a documented status of its operation,
 * with the documented media type, required headers and a body that validates against the documented schema.
 */
final class ApiContract {

    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private final JsonNode spec;

    private ApiContract(JsonNode spec) {
        this.spec = spec;
    }

    static ApiContract of(JsonNode spec) {
        return new ApiContract(spec);
    }

    /** The document the API serves at {@code /openapi.json}, which must be OpenAPI 3.1. */
    static ApiContract fetch(HttpClient http, String baseUrl) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/openapi.json")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET /openapi.json").isEqualTo(200);
        JsonNode spec = Json.MAPPER.readTree(response.body());
        assertThat(spec.path("openapi").asText()).startsWith("3.1");
        return new ApiContract(spec);
    }

    JsonNode spec() {
        return spec;
    }

    /** Every documented operation as {@code "GET /v1/users/{userId}/unread"}. */
    Set<String> operations() {
        Set<String> operations = new LinkedHashSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = spec.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            path.getValue().fieldNames().forEachRemaining(method -> operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey()));
        }
        return operations;
    }

    /** Every documented response as {@code "GET /v1/users/{userId}/unread 200"}. */
    Set<String> statuses() {
        Set<String> statuses = new LinkedHashSet<>();
        for (String operation : operations()) {
            String[] parts = operation.split(" ", 2);
            spec.path("paths").path(parts[1]).path(parts[0].toLowerCase(Locale.ROOT)).path("responses").fieldNames()
                    .forEachRemaining(status -> statuses.add(operation + " " + status));
        }
        return statuses;
    }

    /** Fails, naming the operation and the violation, unless {@code response} is what the document promises. */
    void check(String method, String template, HttpResponse<?> response) throws Exception {
        String operation = method + " " + template + " -> " + response.statusCode();
        JsonNode declared = spec.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
        assertThat(declared.isMissingNode()).as(operation + ": operation documented").isFalse();
        JsonNode documented = declared.path("responses").path(Integer.toString(response.statusCode()));
        assertThat(documented.isMissingNode()).as(operation + ": status documented").isFalse();
        documented = resolve(documented);

        for (Iterator<Map.Entry<String, JsonNode>> headers = documented.path("headers").fields(); headers.hasNext(); ) {
            Map.Entry<String, JsonNode> header = headers.next();
            if (header.getValue().path("required").asBoolean(false)) {
                assertThat(response.headers().firstValue(header.getKey())).as(operation + ": header " + header.getKey()).isPresent();
            }
        }

        if (!documented.has("content")) { // a 304
            assertThat(response.headers().firstValue("Content-Type")).as(operation + ": no body").isEmpty();
            return;
        }
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        String mediaType = contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        JsonNode content = documented.path("content");
        assertThat(content.has(mediaType)).as(operation + ": media type " + contentType + " documented in " + content.fieldNames()).isTrue();
        if (!mediaType.endsWith("json")) return;

        JsonNode body = Json.MAPPER.readTree((String) response.body());
        Set<ValidationMessage> violations = validate(content.path(mediaType).path("schema"), body);
        assertThat(violations).as(operation + ": body " + response.body()).isEmpty();
    }

    /** Validates {@code value} against a schema of this document, resolving its {@code #/components/...} references. */
    Set<ValidationMessage> validate(JsonNode schema, JsonNode value) {
        ObjectNode root = schema.deepCopy();
        root.set("components", spec.path("components"));
        return SCHEMAS.getSchema(root).validate(value);
    }

    /** A response given as {@code $ref} to {@code #/components/responses/...}. */
    private JsonNode resolve(JsonNode node) {
        JsonNode ref = node.path("$ref");
        return ref.isTextual() ? spec.at(ref.asText().substring(1)) : node;
    }
}
