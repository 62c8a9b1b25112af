package io.readmark.view.routes;

import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;
import io.readmark.view.push.StreamRoute;
import io.readmark.view.push.StreamSettings;
import io.readmark.view.redis.RedisGuard;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.readmark.common.auth.Access;
import io.readmark.common.auth.AccessRule;
import io.readmark.common.auth.Scopes;
import io.readmark.common.http.ApiException;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.http.OpenApiDocument;
import io.readmark.common.http.Problem;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.store.unread.AuthorCounts;
import io.readmark.store.notice.BroadcastUnread;
import io.readmark.store.unread.InvalidCursorException;
import io.readmark.store.notice.LiveNoticeSource;
import io.readmark.store.notice.MembershipHints;
import io.readmark.store.notice.NoticeItem;
import io.readmark.store.notice.NoticePage;
import io.readmark.store.notice.NoticeReader;
import io.readmark.store.notice.NoticeState;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadPage;
import io.readmark.store.unread.UnreadReader;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The view API's endpoints. Every input is validated into a 400 naming it before Redis is asked, and every Redis
 * call goes through {@link RedisGuard}, so a client never sees a 500 or a stack trace because of its input or of Redis.
 */
public final class ViewRoutes {

    private static final int MAX_CAP = 1_000_000;
    private static final Status UP = new Status("UP");
    private static final AccessRule OWN_USER = AccessRule.ownUser("userId", Scopes.READ_ANY);

    /**
     * {@code GET /v1/users/{userId}/unread}: {@code total} covers blogs and notices; {@code notices} the unread notices,
     * broadcast and targeted; byAuthor keys are author ids, as JSON object keys must be strings; {@code unseen} the
     * unread blogs published after the user last saw the inbox; {@code version} the user's state version;
     * {@code display} only when the request named a cap.
     */
    public record CountsBody(long userId, long total, long unseen, long notices,
                      @JsonSerialize(using = AuthorCountsJson.class) AuthorCounts byAuthor,
                      @JsonInclude(JsonInclude.Include.NON_DEFAULT) long authorsOmitted, long version,
                      @JsonInclude(JsonInclude.Include.NON_NULL) DisplayBody display) {

        public static CountsBody of(InboxCounts counts, OptionalInt cap) {
            DisplayBody display = cap.isPresent() ? DisplayBody.of(counts, cap.getAsInt()) : null;
            return new CountsBody(counts.blogs().userId(), counts.total(), counts.unseen(), counts.notices(), counts.blogs().byAuthor(),
                    counts.blogs().authorsOmitted(), counts.blogs().version(), display);
        }
    }

    /** The counts as a badge shows them: a count above the cap reads {@code "<cap>+"}. */
    record DisplayBody(String total, String unseen, String notices, Map<String, String> byAuthor) {

        static DisplayBody of(InboxCounts counts, int cap) {
            Map<String, String> shown = new LinkedHashMap<>();
            counts.blogs().byAuthor().forEach((authorId, count) -> shown.put(Long.toString(authorId), capped(count, cap)));
            return new DisplayBody(capped(counts.total(), cap), capped(counts.unseen(), cap), capped(counts.notices(), cap), shown);
        }

        private static String capped(long count, int cap) {
            return count > cap ? cap + "+" : Long.toString(count);
        }
    }

    /** One page, newest first; {@code nextCursor} is written as null on the last page so clients can rely on it. */
    record PageBody(List<ItemBody> items, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {
    }

    record ItemBody(long blogId, long authorId, Instant publishedAt) {
    }

    /** {@code GET /v1/users/{userId}/blogs/{blogId}?authorId=}: whether that blog is unread for the user. */
    record BlogBody(long userId, long blogId, long authorId, boolean unread) {
    }

    /** One page of the notice inbox, newest first, read and unread together. */
    record NoticePageBody(List<NoticeBody> items, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {
    }

    /** A notice: {@code kind} broadcast (with its audience) or targeted; {@code at} when published or sent. */
    record NoticeBody(long noticeId, String kind, @JsonInclude(JsonInclude.Include.NON_NULL) String audience, Instant at,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Instant expiresAt, boolean read) {

        static NoticeBody of(NoticeItem item) {
            return new NoticeBody(item.noticeId(), item.broadcast() ? "broadcast" : "targeted", item.audience(),
                    Instant.ofEpochMilli(item.atMillis()),
                    item.expiresAtMillis() > 0 ? Instant.ofEpochMilli(item.expiresAtMillis()) : null, item.read());
        }
    }

    /** {@code GET /v1/users/{userId}/notices/{noticeId}}: whether the user can read that notice, and whether they did. */
    record NoticeStateBody(long userId, long noticeId, boolean readable, boolean read,
                           @JsonInclude(JsonInclude.Include.NON_NULL) NoticeBody notice) {
    }

    record Status(String status) {
    }

    private final RedisGuard redis;
    private final UnreadKeys keys;
    private final LiveNoticeSource audiences;
    private final MembershipHints memberships = new RecentMemberships();
    private final int defaultLimit;
    private final int maxLimit;
    private final int hashReadFields;
    private final boolean layoutUpgrade;

    public ViewRoutes(RedisGuard redis, ViewApiConfig config, LiveNoticeSource audiences) {
        this.redis = redis;
        this.keys = config.keys();
        this.audiences = audiences;
        this.defaultLimit = config.defaultLimit();
        this.maxLimit = config.maxLimit();
        this.hashReadFields = config.hashReadFields();
        this.layoutUpgrade = config.layoutUpgrade();
    }

    public JsonHttpServer register(JsonHttpServer server, Access access, StreamRoute stream, StreamSettings streams) {
        return server
                .asyncRoute("GET", "/v1/users/{userId}/unread", access.requireAsync(OWN_USER, this::counts))
                // EventSource cannot send headers: a short-lived token may come in the query, on this route only.
                .route("GET", "/v1/users/{userId}/unread/stream",
                        access.requireAllowingQueryToken(OWN_USER, streams.maxQueryTokenLifetime(), stream::stream))
                // Before the per-author template, which would take "items" for an authorId: the first match wins.
                .route("GET", "/v1/users/{userId}/unread/items", access.require(OWN_USER, this::items))
                .route("GET", "/v1/users/{userId}/unread/{authorId}", access.require(OWN_USER, this::page))
                .route("GET", "/v1/users/{userId}/blogs/{blogId}", access.require(OWN_USER, this::blog))
                .route("GET", "/v1/users/{userId}/notices", access.require(OWN_USER, this::notices))
                .route("GET", "/v1/users/{userId}/notices/{noticeId}", access.require(OWN_USER, this::notice))
                .route("GET", "/openapi.json", OpenApiDocument.handler(ViewApi.class, "openapi.json"));
    }

    /**
     * The badge read, the most frequent request: served from the event loop with Lettuce's async API, no thread hop.
     * The blog counts and the user's notice state go out in one flush; only a user whose audiences changed since their
     * last read here costs a second round trip ({@link NoticeReader#broadcastUnreadAsync}). An {@code If-None-Match}
     * naming the answer's tag ({@link CountsTag}) is answered {@code 304}, without a body.
     */
    CompletionStage<Response> counts(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        OptionalInt cap = cap(request.query("cap"));
        Optional<String> ifNoneMatch = request.header("If-None-Match");
        return redis.callForAsync(userId, connection -> readCounts(connection, userId)).thenApply(counts -> {
            String tag = CountsTag.of(counts);
            Response response = CountsTag.matches(ifNoneMatch, tag) ? new Response(304, null) : Response.ok(CountsBody.of(counts, cap));
            // Caches may keep it but must ask first: a badge changes at any moment.
            return response.withHeader("ETag", tag).withHeader("Cache-Control", "private, no-cache");
        });
    }

    /** Everything a user has unread, as the counts route and the stream read it. */
    public CompletionStage<InboxCounts> readCounts(RedisConnections.Connection connection, long userId) {
        CompletionStage<UnreadCounts> blogs = new UnreadReader(connection, keys, layoutUpgrade).countsAsync(userId);
        CompletionStage<BroadcastUnread> broadcasts = noticeReader(connection).broadcastUnreadAsync(userId);
        return blogs.thenCombine(broadcasts, InboxCounts::new);
    }

    public NoticeReader noticeReader(RedisConnections.Connection connection) {
        return new NoticeReader(connection, keys, audiences, memberships, System::currentTimeMillis, hashReadFields);
    }

    Response page(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        long authorId = Request.positiveId("authorId", request.pathVariable("authorId"));
        int limit = limit(request.query("limit"));
        String cursor = request.query("cursor").orElse(null);
        return pageResponse(userId, cursor, reader -> reader.page(userId, authorId, limit, cursor));
    }

    Response items(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        int limit = limit(request.query("limit"));
        String cursor = request.query("cursor").orElse(null);
        return pageResponse(userId, cursor, reader -> reader.mergedPage(userId, limit, cursor));
    }

    Response blog(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        long blogId = Request.positiveId("blogId", request.pathVariable("blogId"));
        long authorId = Request.positiveId("authorId", request.query("authorId").orElseThrow(() ->
                ApiException.badRequest("authorId", "authorId is required: the positive 64-bit id of the blog's author")));
        boolean unread = read(userId, reader -> reader.isUnread(userId, authorId, blogId));
        return Response.ok(new BlogBody(userId, blogId, authorId, unread));
    }

    Response notices(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        int limit = limit(request.query("limit"));
        String cursor = request.query("cursor").orElse(null);
        NoticePage page;
        try {
            page = redis.callFor(userId, connection -> noticeReader(connection).page(userId, limit, cursor));
        } catch (InvalidCursorException e) {
            throw invalidCursor(cursor);
        }
        return Response.ok(new NoticePageBody(page.items().stream().map(NoticeBody::of).toList(), page.nextCursor()));
    }

    Response notice(Request request) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        long noticeId = Request.positiveId("noticeId", request.pathVariable("noticeId"));
        NoticeState state = redis.callFor(userId, connection -> noticeReader(connection).notice(userId, noticeId));
        return Response.ok(new NoticeStateBody(userId, noticeId, state.readable(), state.read(),
                state.notice() == null ? null : NoticeBody.of(state.notice())));
    }

    /** Liveness says only that this process serves HTTP; restarting it would not bring Redis back. */
    public Response live(Request request) {
        return Response.ok(UP);
    }

    /**
     * Ready only while Redis answers and the circuit is closed, so a load balancer stops sending reads this instance
     * can only refuse. While the circuit is half-open, a probe may be the trial call that closes it.
     */
    public Response ready(Request request) {
        redis.probe(connection -> connection.sync().ping());
        return Response.ok(UP);
    }

    private <T> T read(long userId, Function<UnreadReader, T> query) {
        return redis.callFor(userId, connection -> query.apply(new UnreadReader(connection, keys, layoutUpgrade)));
    }

    private Response pageResponse(long userId, String cursor, Function<UnreadReader, UnreadPage> query) {
        UnreadPage page;
        try {
            page = read(userId, query);
        } catch (InvalidCursorException e) {
            throw invalidCursor(cursor);
        }
        List<ItemBody> items = page.items().stream()
                .map(item -> new ItemBody(item.blogId(), item.authorId(), item.publishedAt()))
                .toList();
        return Response.ok(new PageBody(items, page.nextCursor()));
    }

    private static ApiException invalidCursor(String cursor) {
        return ApiException.badRequest("cursor", "cursor must be a nextCursor returned by this API, was " + Problem.quote(cursor));
    }

    private int limit(Optional<String> raw) {
        if (raw.isEmpty()) return defaultLimit;
        return Request.boundedInt("limit", raw.get(), maxLimit);
    }

    private static OptionalInt cap(Optional<String> raw) {
        return raw.isEmpty() ? OptionalInt.empty() : OptionalInt.of(Request.boundedInt("cap", raw.get(), MAX_CAP));
    }
}
