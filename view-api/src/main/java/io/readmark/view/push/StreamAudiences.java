package io.readmark.view.push;

import io.readmark.view.routes.AudienceNoticeCache;

import io.readmark.store.notice.NoticeKeys;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The audience channels one stream follows: everyone's and those its user is in. A broadcast's message first drops
 * the audience's cached notices, then makes the stream read again, so the push includes it.
 */
final class StreamAudiences implements UnreadStream.Audiences {

    private final Supplier<Set<String>> memberships;
    private final ChangeFeed feed;
    private final NoticeKeys keys;
    private final AudienceNoticeCache cache;
    /** A lock, not a monitor: subscribing blocks, which would pin a virtual thread on Java 21. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, ChangeFeed.Subscription> followed = new HashMap<>(); // guarded by lock
    private volatile boolean stopped;

    /** @param memberships reads the user's audiences now (blocking), everyone's included */
    StreamAudiences(Supplier<Set<String>> memberships, ChangeFeed feed, NoticeKeys keys, AudienceNoticeCache cache) {
        this.memberships = memberships;
        this.feed = feed;
        this.keys = keys;
        this.cache = cache;
    }

    /**
     * Subscribes to the channels of the audiences the user is in now and leaves the others; returns once Redis confirmed.
     *
     * @throws io.lettuce.core.RedisException when Redis cannot be asked or does not confirm
     */
    @Override
    public void follow(UnreadStream stream) {
        follow(stream, memberships.get());
    }

    /** As {@link #follow(UnreadStream)}, with the user's audiences already read (by a caller holding a connection). */
    void follow(UnreadStream stream, Set<String> audiences) {
        lock.lock();
        try {
            if (stopped) return;
            followed.entrySet().removeIf(entry -> {
                if (audiences.contains(entry.getKey())) return false;
                entry.getValue().cancel();
                return true;
            });
            for (String audience : audiences) {
                if (!followed.containsKey(audience)) followed.put(audience, feed.subscribe(keys.audienceChanges(audience), listener(audience, stream)));
            }
        } finally {
            lock.unlock();
        }
        if (stopped) stop(); // stopped while subscribing: what was subscribed meanwhile goes too
    }

    /** Never waits: called on the thread that ends the stream, an event loop among them. A follow under way cancels. */
    @Override
    public void stop() {
        stopped = true;
        if (!lock.tryLock()) return;
        try {
            followed.values().forEach(ChangeFeed.Subscription::cancel);
            followed.clear();
        } finally {
            lock.unlock();
        }
    }

    private ChangeFeed.Listener listener(String audience, UnreadStream stream) {
        return new ChangeFeed.Listener() {
            @Override
            public void changed(String message) {
                cache.changed(audience, message);
                stream.changed(UnreadStream.Change.ofAudience(audience, message));
            }

            @Override
            public void lost() {
                stream.lost();
            }
        };
    }
}
