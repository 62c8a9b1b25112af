package io.readmark.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.Settings;
import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.Json;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadLimits;
import io.readmark.store.UnreadWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A running view API over a real Redis, with a key prefix of its own so test classes never see each other's keys,
 * and an HTTP client to call it the way any client would. One per test class.
 */
final class ViewApiFixture implements AutoCloseable {

    /** 2026-01-01T00:00:00Z: blogs are published {@code blogId} seconds after it, so newer ids are newer blogs. */
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    final ViewApiConfig config;
    final ViewApi api;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private RedisConnections writerRedis;

    private ViewApiFixture(String redisUrl, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(Map.of(
                ViewApiConfig.HOST, "127.0.0.1",
                ViewApiConfig.PORT, "0",
                ViewApiConfig.MANAGEMENT_PORT, "0",
                ViewApiConfig.REDIS_URL, redisUrl,
                ViewApiConfig.REDIS_PREFIX, "test-" + UUID.randomUUID(),
                AuthConfig.MODE, "off"));
        all.putAll(settings);
        config = ViewApiConfig.from(Settings.of(all, Map.of()));
        api = ViewApi.start(config);
    }

    /** On the JVM-wide test Redis, authentication off. */
    static ViewApiFixture onSharedRedis() {
        return onSharedRedis(Map.of());
    }

    /** On the JVM-wide test Redis, with these settings on top (for example the {@code AUTH_*} ones). */
    static ViewApiFixture onSharedRedis(Map<String, String> settings) {
        return new ViewApiFixture(TestInfrastructure.shared().redisUrl(), settings);
    }

    /** On a Redis the test owns, for example one it stops. */
    static ViewApiFixture on(String redisUrl) {
        return new ViewApiFixture(redisUrl, Map.of());
    }

    /** On a Redis the test owns, with more view API settings (for example the circuit breaker's). */
    static ViewApiFixture on(String redisUrl, Map<String, String> settings) {
        return new ViewApiFixture(redisUrl, settings);
    }

    static Instant publishedAt(long blogId) {
        return T0.plusSeconds(blogId);
    }

    /** Makes the blogs unread for the user the way the stream processor does, under this fixture's prefix. */
    void deliver(long userId, long authorId, long... blogIds) {
        write(writer -> {
            for (long blogId : blogIds) writer.deliver(userId, authorId, blogId, publishedAt(blogId).toEpochMilli());
        });
    }

    /** As {@link #deliver}, all published at the same instant. */
    void deliverAt(Instant publishedAt, long userId, long authorId, long... blogIds) {
        write(writer -> {
            for (long blogId : blogIds) writer.deliver(userId, authorId, blogId, publishedAt.toEpochMilli());
        });
    }

    /** The user reads the blog, as the stream processor applies a BlogRead. */
    void read(long userId, long authorId, long blogId) {
        write(writer -> writer.remove(userId, authorId, blogId, T0.toEpochMilli()));
    }

    /** The blog is deleted for the user, as a BlogDeleted's fan-out applies it. */
    void delete(long userId, long authorId, long blogId) {
        write(writer -> writer.delete(userId, authorId, blogId, T0.toEpochMilli()));
    }

    /** The user reads everything of the author published up to {@code readAt}. */
    void readAll(long userId, long authorId, Instant readAt) {
        write(writer -> writer.readAll(userId, authorId, readAt.toEpochMilli()));
    }

    /** The user unfollows the author. */
    void unfollow(long userId, long authorId) {
        write(writer -> writer.unfollow(userId, authorId, T0.plusSeconds(1_000_000).toEpochMilli()));
    }

    /** Opens an event stream at {@code pathAndQuery} with these request headers. */
    SseClient stream(String pathAndQuery, Map<String, String> headers) {
        return SseClient.open(api.port(), pathAndQuery, headers);
    }

    /** The user reads everything of every author published up to {@code readAt}, as an AllRead is applied. */
    void allRead(long userId, Instant readAt) {
        write(writer -> writer.allRead(userId, readAt.toEpochMilli()));
    }

    /** The user saw the inbox, as the stream processor applies an InboxSeen. */
    void seen(long userId, Instant seenAt) {
        write(writer -> writer.inboxSeen(userId, seenAt.toEpochMilli()));
    }

    /** Replaces the user's counts hash with a string, so that every read of that user fails in Redis (WRONGTYPE). */
    void breakCountsOf(long userId) {
        if (writerRedis == null) writerRedis = RedisConnections.connect(config.redisUrl(), Duration.ofSeconds(5), false);
        writerRedis.shared().sync().set(config.keys().counts(userId), "not a hash");
    }

    /** Any writes, applied by the real scripts, acknowledged when this returns. */
    void write(Consumer<UnreadWriter> changes) {
        if (writerRedis == null) writerRedis = RedisConnections.connect(config.redisUrl(), Duration.ofSeconds(5), false);
        try (UnreadWriter writer = new UnreadWriter(writerRedis.openBinary(), config.keys(), UnreadLimits.DEFAULTS, 1000)) {
            changes.accept(writer);
            writer.awaitAcknowledged();
        }
    }

    HttpResponse<String> get(String pathAndQuery) {
        return send("GET", pathAndQuery);
    }

    /** {@code authorization} null sends no Authorization header. */
    HttpResponse<String> get(String pathAndQuery, String authorization) {
        return send("GET", pathAndQuery, authorization);
    }

    HttpResponse<String> send(String method, String pathAndQuery) {
        return send(method, pathAndQuery, null);
    }

    /** A GET on the management port: health and metrics. */
    HttpResponse<String> management(String path) {
        return send(api.managementPort(), "GET", path, null);
    }

    private HttpResponse<String> send(String method, String pathAndQuery, String authorization) {
        return send(api.port(), method, pathAndQuery, authorization);
    }

    private HttpResponse<String> send(int port, String method, String pathAndQuery, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) request.header("Authorization", authorization);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    static String contentType(HttpResponse<String> response) {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    @Override
    public void close() {
        api.close();
        if (writerRedis != null) writerRedis.close();
        http.close();
    }
}
