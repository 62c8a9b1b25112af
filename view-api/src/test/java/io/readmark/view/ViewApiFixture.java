package io.readmark.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.Settings;
import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.Json;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A running view API over a real Redis, with a key prefix of its own so test classes never see each other's keys,
 * and an HTTP client to call it the way any client would. One per test class.
 */
public final class ViewApiFixture implements AutoCloseable {

    /** 2026-01-01T00:00:00Z: blogs are published {@code blogId} seconds after it, so newer ids are newer blogs. */
    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    public final ViewApiConfig config;
    public final ViewApi api;
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
    public static ViewApiFixture onSharedRedis() {
        return onSharedRedis(Map.of());
    }

    /** On the JVM-wide test Redis, with these settings on top (for example the {@code AUTH_*} ones). */
    public static ViewApiFixture onSharedRedis(Map<String, String> settings) {
        return new ViewApiFixture(TestInfrastructure.shared().redisUrl(), settings);
    }

    /** On a Redis the test owns, for example one it stops. */
    public static ViewApiFixture on(String redisUrl) {
        return new ViewApiFixture(redisUrl, Map.of());
    }

    /** On a Redis the test owns, with more view API settings (for example the circuit breaker's). */
    public static ViewApiFixture on(String redisUrl, Map<String, String> settings) {
        return new ViewApiFixture(redisUrl, settings);
    }

    public static Instant publishedAt(long blogId) {
        return T0.plusSeconds(blogId);
    }

    /** Makes the blogs unread for the user the way the stream processor does, under this fixture's prefix. */
    public void deliver(long userId, long authorId, long... blogIds) {
        write(writer -> {
            for (long blogId : blogIds) writer.deliver(userId, authorId, blogId, publishedAt(blogId).toEpochMilli());
        });
    }

    /** As {@link #deliver}, all published at the same instant. */
    public void deliverAt(Instant publishedAt, long userId, long authorId, long... blogIds) {
        write(writer -> {
            for (long blogId : blogIds) writer.deliver(userId, authorId, blogId, publishedAt.toEpochMilli());
        });
    }

    /** The user reads the blog, as the stream processor applies a BlogRead. */
    public void read(long userId, long authorId, long blogId) {
        write(writer -> writer.remove(userId, authorId, blogId, T0.toEpochMilli()));
    }

    /** The blog is deleted for the user, as a BlogDeleted's fan-out applies it. */
    public void delete(long userId, long authorId, long blogId) {
        write(writer -> writer.delete(userId, authorId, blogId, T0.toEpochMilli()));
    }

    /** The user reads everything of the author published up to {@code readAt}. */
    public void readAll(long userId, long authorId, Instant readAt) {
        write(writer -> writer.readAll(userId, authorId, readAt.toEpochMilli()));
    }

    /** The user unfollows the author. */
    public void unfollow(long userId, long authorId) {
        write(writer -> writer.unfollow(userId, authorId, T0.plusSeconds(1_000_000).toEpochMilli()));
    }

    /** Opens an event stream at {@code pathAndQuery} with these request headers. */
    public SseClient stream(String pathAndQuery, Map<String, String> headers) {
        return SseClient.open(api.port(), pathAndQuery, headers);
    }

    /** The user reads everything of every author published up to {@code readAt}, as an AllRead is applied. */
    public void allRead(long userId, Instant readAt) {
        write(writer -> writer.allRead(userId, readAt.toEpochMilli()));
    }

    /** The user saw the inbox, as the stream processor applies an InboxSeen. */
    public void seen(long userId, Instant seenAt) {
        write(writer -> writer.inboxSeen(userId, seenAt.toEpochMilli()));
    }

    /** Writes from now on with {@code writer}'s credentials (the processor's Redis user) rather than the view API's. */
    public ViewApiFixture writingAs(RedisEndpoint writer) {
        if (writerRedis != null) writerRedis.close();
        writerRedis = RedisConnections.connect(writer, Duration.ofSeconds(5), false);
        return this;
    }

    /** Replaces the user's counts hash with a string, so that every read of that user fails in Redis (WRONGTYPE). */
    public void breakCountsOf(long userId) {
        if (writerRedis == null) writerRedis = RedisConnections.connect(config.redis(), Duration.ofSeconds(5), false);
        writerRedis.shared().sync().set(config.keys().h(userId), "not a hash");
    }

    /** Any writes, applied by the real scripts, acknowledged when this returns. */
    public void write(Consumer<UnreadWriter> changes) {
        if (writerRedis == null) writerRedis = RedisConnections.connect(config.redis(), Duration.ofSeconds(5), false);
        try (UnreadWriter writer = new UnreadWriter(writerRedis.openBinary(), config.keys(), UnreadLimits.DEFAULTS, 1000)) {
            changes.accept(writer);
            writer.awaitAcknowledged();
        }
    }

    public HttpResponse<String> get(String pathAndQuery) {
        return send("GET", pathAndQuery);
    }

    /** {@code authorization} null sends no Authorization header. */
    public HttpResponse<String> get(String pathAndQuery, String authorization) {
        return send("GET", pathAndQuery, authorization);
    }

    public HttpResponse<String> send(String method, String pathAndQuery) {
        return send(method, pathAndQuery, null);
    }

    /** A GET with one more request header, such as {@code If-None-Match}. */
    public HttpResponse<String> get(String pathAndQuery, String header, String value) {
        return send(api.port(), "GET", pathAndQuery, null, Map.of(header, value));
    }

    /** A GET on the management port: health and metrics. */
    public HttpResponse<String> management(String path) {
        return send(api.managementPort(), "GET", path, null);
    }

    private HttpResponse<String> send(String method, String pathAndQuery, String authorization) {
        return send(api.port(), method, pathAndQuery, authorization);
    }

    private HttpResponse<String> send(int port, String method, String pathAndQuery, String authorization) {
        return send(port, method, pathAndQuery, authorization, Map.of());
    }

    private HttpResponse<String> send(int port, String method, String pathAndQuery, String authorization, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) request.header("Authorization", authorization);
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    /** The body with a state version other than 0 written {@code V}: it starts at the time of the user's first change. */
    public static String versionMasked(HttpResponse<String> response) {
        return response.body().replaceFirst("\"version\":[1-9][0-9]*", "\"version\":V");
    }

    public static String contentType(HttpResponse<String> response) {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    @Override
    public void close() {
        api.close();
        if (writerRedis != null) writerRedis.close();
        http.close();
    }

    /** The sample of the Prometheus scrape whose labels contain {@code label}, 0 when absent. */
    public static double metric(ViewApiFixture view, String name, String label) {
        Matcher sample = Pattern.compile("(?m)^" + name + "\\{([^}]*)} (\\S+)$").matcher(view.management("/metrics").body());
        while (sample.find()) {
            if (sample.group(1).contains(label)) return Double.parseDouble(sample.group(2));
        }
        return 0;
    }
}
