package io.readmark.common.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import io.readmark.common.json.Json;

import java.io.IOException;
import java.io.OutputStream;

/** Writes JSON and problem+json responses; every response of the HTTP servers goes through here. */
public final class HttpResponses {

    private HttpResponses() {
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
