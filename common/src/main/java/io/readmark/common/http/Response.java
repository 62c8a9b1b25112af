package io.readmark.common.http;

/** What a route answers: a status and a body that is written as JSON. */
public record Response(int status, Object body) {

    public static Response ok(Object body) {
        return new Response(200, body);
    }

    public static Response accepted(Object body) {
        return new Response(202, body);
    }
}
