package io.readmark.view.push;

import io.lettuce.core.SetArgs;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * A user's live key ({@link UnreadKeys#live}): present while some view API instance has a stream of theirs open, and
 * only then do the write scripts publish their changes. Set with a TTL and refreshed every heartbeat, never deleted: a
 * stream closing here cannot know whether another instance still has one open, and a key left over costs only the
 * messages nobody reads until it expires. An instance refreshes the keys of a tick's users at once, pipelined on a
 * connection of its own: a flush per {@value #BATCH} keys instead of a write (and a wake-up of Redis) per key.
 */
public final class LiveKeys {

    /** Keys refreshed per flush: bounds what one flush buffers, and is big enough that a flush costs little per key. */
    static final int BATCH = 1_000;

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
     * Refreshes the users' keys; each stage says whether the key had expired meanwhile (a stalled refresh), in which
     * case changes may have gone unpublished and the user's streams must read again.
     *
     * @param pipelined a connection of the caller's own, its commands flushed only when told (auto-flush off)
     */
    Map<Long, CompletionStage<Boolean>> refresh(RedisConnections.Connection pipelined, Collection<Long> userIds) {
        Map<Long, CompletionStage<Boolean>> refreshed = new HashMap<>(userIds.size() * 2);
        SetArgs expiring = SetArgs.Builder.px(ttl.toMillis());
        for (long userId : userIds) {
            refreshed.put(userId, pipelined.async().setGet(keys.live(userId), "1", expiring).thenApply(Objects::isNull));
            if (refreshed.size() % BATCH == 0) pipelined.stateful().flushCommands();
        }
        pipelined.stateful().flushCommands();
        return refreshed;
    }
}
