package io.readmark.common.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import io.readmark.schemas.Json;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writes JSON, problem+json and text responses; every response of the HTTP servers goes through here. */
public final class HttpResponses {

    private HttpResponses() {
    }

    /** A route's answer: its body as JSON, or as is when it is {@link Response.Text}. */
    public static void answer(HttpExchange exchange, Response response) throws IOException {
        if (response.body() instanceof Response.Text text) {
            send(exchange, response.status(), text.contentType(), text.text().getBytes(StandardCharsets.UTF_8));
        } else {
            json(exchange, response.status(), response.body());
        }
    }

    public static void json(HttpExchange exchange, int status, Object body) throws IOException {
        send(exchange, status, "application/json", toBytes(body));
    }

    public static void problem(HttpExchange exchange, Problem problem) throws IOException {
        send(exchange, problem.status(), "application/problem+json", toBytes(problem));
    }

    public static void empty(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    private static byte[] toBytes(Object body) {
        try {
            return Json.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("response not serialisable: " + body.getClass().getName(), e);
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
