package io.readmark.view.push;

import io.readmark.view.redis.RedisGuard;
import io.readmark.view.routes.AudienceNoticeCache;
import io.readmark.view.routes.InboxCounts;
import io.readmark.view.routes.ViewRoutes;

import io.readmark.common.auth.Principal;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.unread.UnreadKeys;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code GET /v1/users/{userId}/unread/stream}: Server-Sent Events of the user's counts. The start subscribes to the
 * user's change channel, sets their live key, subscribes to the channels of their audiences, then reads the snapshot:
 * a change made after the read is published (the key was there) and heard (the subscriptions were there), so nothing
 * falls between snapshot and pushes. Starts are paced ({@link OpenStreams#awaitTurn}) and each stream's {@code retry:}
 * is drawn from a window, so a restart's streams come back spread. Redis unavailable at the start is a 503 like any
 * read. A {@code Last-Event-ID} changes nothing: every stream, new or resumed, starts with a fresh snapshot, which is
 * exact where replaying missed events could not be. The stream ends when its token is no longer accepted or at its
 * age limit ({@link StreamLifetime}).
 */
public final class StreamRoute {

    private final RedisGuard redis;
    private final ViewRoutes routes;
    private final ChangeFeed feed;
    private final AudienceNoticeCache audienceCache;
    private final LiveKeys liveKeys;
    private final OpenStreams streams;
    private final UnreadKeys keys;
    private final StreamSettings settings;

    public StreamRoute(RedisGuard redis, ViewRoutes routes, ChangeFeed feed, AudienceNoticeCache audienceCache, LiveKeys liveKeys,
                OpenStreams streams, UnreadKeys keys, StreamSettings settings) {
        this.redis = redis;
        this.routes = routes;
        this.feed = feed;
        this.audienceCache = audienceCache;
        this.liveKeys = liveKeys;
        this.streams = streams;
        this.keys = keys;
        this.settings = settings;
    }

    /** {@code principal}: who the token speaks for, empty with authentication off. */
    public Response stream(Request request, Optional<Principal> principal) {
        long userId = Request.positiveId("userId", request.pathVariable("userId"));
        StreamLifetime lifetime = StreamLifetime.of(principal, settings.maxAge(), System.currentTimeMillis(),
                ThreadLocalRandom.current());
        streams.admit(userId);
        StreamAudiences audiences = new StreamAudiences(() -> memberships(userId), feed, new NoticeKeys(keys.prefix()), audienceCache);
        UnreadStream stream = new UnreadStream(userId, this::readCounts, streams, audiences, System::currentTimeMillis, lifetime);
        InboxCounts snapshot;
        try {
            streams.awaitTurn();
            snapshot = redis.callFor(userId, connection -> {
                stream.subscribed(feed.subscribe(keys.changes(userId), stream));
                liveKeys.mark(connection, userId);
                // After the live key: a join from now on is told on the user's channel, one before is read here, on
                // this call's connection: a second guarded call for the same user would be refused while this one
                // is its breaker's trial, and the trial would never succeed.
                audiences.follow(stream, routes.noticeReader(connection).audiences(userId));
                return routes.readCounts(connection, userId).toCompletableFuture().join();
            });
        } catch (RuntimeException e) {
            stream.end(UnreadStream.Ending.NOT_STARTED);
            throw e;
        }
        streams.opened(stream);
        Duration retry = settings.retryDrawn(ThreadLocalRandom.current());
        return Response.events(sink -> stream.open(sink, snapshot, retry));
    }

    private Set<String> memberships(long userId) {
        return redis.callFor(userId, connection -> routes.noticeReader(connection).audiences(userId));
    }

    private CompletionStage<InboxCounts> readCounts(long userId) {
        return redis.callForAsync(userId, connection -> routes.readCounts(connection, userId));
    }
}
