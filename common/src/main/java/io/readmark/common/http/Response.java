package io.readmark.common.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a route answers: a status, a body that is written as JSON (none when null, or as is when it is a {@link Text}, or as an event
 * stream when it is an {@link EventStream}), and extra headers such as {@code Retry-After}.
 */
public record Response(int status, Object body, Map<String, String> headers) {

    public Response {
        headers = Map.copyOf(headers);
    }

    public Response(int status, Object body) {
        this(status, body, Map.of());
    }

    /** A body that is not JSON, such as the Prometheus scrape: sent as is, with its own content type. */
    public record Text(String contentType, String text) {
    }

    /**
     * A body that is a stream of Server-Sent Events: the server sends the head, then hands {@code opened} a sink to
     * send events through for as long as the client stays; see {@link EventSink}.
     */
    public record EventStream(Consumer<EventSink> opened) {
    }

    public static Response ok(Object body) {
        return new Response(200, body);
    }

    public static Response accepted(Object body) {
        return new Response(202, body);
    }

    /** This response with one more header; a header of the same name is replaced. */
    public Response withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new Response(status, body, more);
    }

    public static Response events(Consumer<EventSink> opened) {
        return new Response(200, new EventStream(opened));
    }

    public static Response text(String contentType, String text) {
        return new Response(200, new Text(contentType, text));
    }
}
