package io.readmark.producer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;

import io.readmark.schemas.Json;

/** A plain JDK HTTP client aimed at one running {@link ProducerApi}; no retries, so tests see every answer. */
final class HttpCalls implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final int port;

    HttpCalls(int port) {
        this.port = port;
    }

    HttpResponse<String> postJson(String path, String body) {
        return post(path, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code contentType} null sends no Content-Type header at all. */
    HttpResponse<String> post(String path, String contentType, byte[] body) {
        return post(path, contentType, body, null);
    }

    /** {@code authorization} null sends no Authorization header. */
    HttpResponse<String> post(String path, String contentType, byte[] body, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) request.header("Content-Type", contentType);
        if (authorization != null) request.header("Authorization", authorization);
        return send(request.build());
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT).GET().build());
    }

    /** A GET on the API's management port: health and metrics. */
    static HttpResponse<String> management(ProducerApi api, String path) {
        try (HttpCalls calls = new HttpCalls(api.managementPort())) {
            return calls.get(path);
        }
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    @Override
    public void close() {
        client.close();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
