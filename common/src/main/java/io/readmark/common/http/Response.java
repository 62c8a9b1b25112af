package io.readmark.common.http;

/** What a route answers: a status and a body that is written as JSON, or as is when it is a {@link Text}. */
public record Response(int status, Object body) {

    /** A body that is not JSON, such as the Prometheus scrape: sent as is, with its own content type. */
    public record Text(String contentType, String text) {
    }

    public static Response ok(Object body) {
        return new Response(200, body);
    }

    public static Response accepted(Object body) {
        return new Response(202, body);
    }

    public static Response text(String contentType, String text) {
        return new Response(200, new Text(contentType, text));
    }
}
