package io.readmark.common.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Serves an API's OpenAPI document, a class-path resource read once at startup so a missing file fails the start. */
public final class OpenApiDocument {

    private OpenApiDocument() {
    }

    /** A handler answering the resource {@code name} next to {@code owner} (same package) as JSON. */
    public static Route.Handler handler(Class<?> owner, String name) {
        JsonNode document;
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("no resource " + name + " next to " + owner.getName());
            document = Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
        return request -> Response.ok(document);
    }
}
