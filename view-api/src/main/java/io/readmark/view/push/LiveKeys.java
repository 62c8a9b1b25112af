package io.readmark.view.push;

import io.lettuce.core.SetArgs;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A user's live key ({@link UnreadKeys#live}): present while some view API instance has a stream of theirs open, and
 * only then do the write scripts publish their changes. Set with a TTL and refreshed every heartbeat, never deleted: a
 * stream closing here cannot know whether another instance still has one open, and a key left over costs only the
 * messages nobody reads until it expires.
 */
public final class LiveKeys {

    private final UnreadKeys keys;
    private final Duration ttl;

    public LiveKeys(UnreadKeys keys, Duration ttl) {
        this.keys = keys;
        this.ttl = ttl;
    }

    /** Sets the key at a stream's start: after the subscription, before the first read, so no change falls between. */
    void mark(RedisConnections.Connection connection, long userId) {
        connection.sync().set(keys.live(userId), "1", SetArgs.Builder.px(ttl.toMillis()));
    }

    /**
     * Refreshes the key; the stage says whether it had expired meanwhile (a stalled refresh), in which case changes may
     * have gone unpublished and the user's streams must read again.
     */
    CompletionStage<Boolean> refresh(RedisConnections.Connection connection, long userId) {
        return connection.async().setGet(keys.live(userId), "1", SetArgs.Builder.px(ttl.toMillis()))
                .thenApply(previous -> previous == null);
    }
}
