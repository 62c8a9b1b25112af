package io.readmark.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.common.http.ApiException;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.store.InvalidCursorException;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadCounts;
import io.readmark.store.UnreadPage;
import io.readmark.store.UnreadReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The view API's endpoints. Every input is validated into a 400 naming it before Redis is asked, and every Redis
 * failure becomes a retryable 503, so a client never sees a 500 or a stack trace because of its input or of Redis.
 */
final class ViewRoutes {

    private static final Logger log = LoggerFactory.getLogger(ViewRoutes.class);
    private static final int RETRY_AFTER_SECONDS = 1;
    private static final Status UP = new Status("UP");

    /** {@code GET /v1/users/{userId}/unread}: byAuthor keys are author ids, as JSON object keys must be strings. */
    record CountsBody(long userId, long total, Map<String, Long> byAuthor) {
    }

    /** One page, newest first; {@code nextCursor} is written as null on the last page so clients can rely on it. */
    record PageBody(List<ItemBody> items, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {
    }

    record ItemBody(long blogId, long authorId, Instant publishedAt) {
    }

    record Status(String status) {
    }

    private final UnreadReader reader;
    private final RedisClusterCommands<String, String> redis;
    private final Duration redisTimeout;
    private final int defaultLimit;
    private final int maxLimit;

    ViewRoutes(RedisConnections.Connection connection, ViewApiConfig config) {
        this.reader = new UnreadReader(connection, config.keys());
        this.redis = connection.sync();
        this.redisTimeout = config.redisTimeout();
        this.defaultLimit = config.defaultLimit();
        this.maxLimit = config.maxLimit();
    }

    JsonHttpServer register(JsonHttpServer server) {
        return server
                .route("GET", "/v1/users/{userId}/unread", this::counts)
                .route("GET", "/v1/users/{userId}/unread/{authorId}", this::page)
                .route("GET", "/health/live", this::live)
                .route("GET", "/health/ready", this::ready);
    }

    Response counts(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        UnreadCounts counts = fromRedis(() -> reader.counts(userId));
        Map<String, Long> byAuthor = new LinkedHashMap<>();
        counts.byAuthor().forEach((authorId, count) -> byAuthor.put(Long.toString(authorId), count));
        return Response.ok(new CountsBody(counts.userId(), counts.total(), byAuthor));
    }

    Response page(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        long authorId = Request.positiveId("authorId", request.pathVariable("authorId"));
        int limit = limit(request.query("limit"));
        String cursor = request.query("cursor").orElse(null);
        UnreadPage page;
        try {
            page = fromRedis(() -> reader.page(userId, authorId, limit, cursor));
        } catch (InvalidCursorException e) {
            throw ApiException.badRequest("cursor", "cursor must be a nextCursor returned by this API, was '" + cursor + "'");
        }
        List<ItemBody> items = page.items().stream()
                .map(item -> new ItemBody(item.blogId(), item.authorId(), item.publishedAt()))
                .toList();
        return Response.ok(new PageBody(items, page.nextCursor()));
    }

    /** Liveness says only that this process serves HTTP; restarting it would not bring Redis back. */
    Response live(Request request) {
        return Response.ok(UP);
    }

    /** Ready only while Redis answers, so a load balancer stops sending reads this instance can only refuse. */
    Response ready(Request request) {
        fromRedis(redis::ping);
        return Response.ok(UP);
    }

    private int limit(Optional<String> raw) {
        if (raw.isEmpty()) return defaultLimit;
        try {
            int limit = Integer.parseInt(raw.get());
            if (limit >= 1 && limit <= maxLimit) return limit;
        } catch (NumberFormatException e) {
            // reported below with the same message as an out-of-range number
        }
        throw ApiException.badRequest("limit", "limit must be an integer 1.." + maxLimit + ", was '" + raw.get() + "'");
    }

    /**
     * Runs one Redis call; any Lettuce failure (refused while disconnected, connect failure, timeout) means the view
     * is unavailable right now, which the client should retry, not an error in its request.
     */
    private <T> T fromRedis(Supplier<T> call) {
        try {
            return call.get();
        } catch (RedisException e) {
            // The exception's text can name hosts and ports, so it goes to the log and not to the client.
            log.atWarn().addKeyValue("error", e.toString()).log("Redis unavailable, answering 503");
            throw ApiException.unavailable("Redis unavailable",
                    "unread state is stored in Redis, which did not answer within " + redisTimeout.toMillis()
                            + " ms; retry after " + RETRY_AFTER_SECONDS + " s", RETRY_AFTER_SECONDS);
        }
    }
}
