package io.readmark.view.routes;

import io.readmark.store.notice.LiveNotice;
import io.readmark.store.notice.LiveNoticeSource;
import io.readmark.store.redis.RedisConnections;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Each audience's live notices, kept for a short time: they are the same for every member, so a counts read of any
 * user finds them here and costs Redis only the user's own state. A load counts from when it was asked, so a notice
 * published before then is seen, and a publish or withdrawal shows within {@code ttl} on every instance; sooner where
 * the audience's change channel is heard ({@link #invalidate}). Failed loads are not kept.
 */
public final class AudienceNoticeCache implements LiveNoticeSource {

    /** More audiences than this at once and the oldest half is forgotten: bounded memory whatever audiences exist. */
    static final int MAX_AUDIENCES = 10_000;

    private record Entry(CompletableFuture<List<LiveNotice>> notices, long askedAtNanos) {
    }

    private final LiveNoticeSource redis;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, String> lastChange = new ConcurrentHashMap<>();

    public AudienceNoticeCache(LiveNoticeSource redis, Duration ttl, LongSupplier nanoTime) {
        this.redis = redis;
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    public CompletionStage<List<LiveNotice>> liveNotices(RedisConnections.Connection connection, String audience) {
        if (ttlNanos == 0) return redis.liveNotices(connection, audience);
        long now = nanoTime.getAsLong();
        Entry current = entries.get(audience);
        if (current != null && now - current.askedAtNanos() < ttlNanos) return current.notices();
        Entry mine = new Entry(new CompletableFuture<>(), now);
        boolean installed = current == null ? entries.putIfAbsent(audience, mine) == null : entries.replace(audience, current, mine);
        if (!installed) {
            Entry other = entries.get(audience);
            return other != null ? other.notices() : redis.liveNotices(connection, audience);
        }
        if (entries.size() > MAX_AUDIENCES) forgetOldest();
        redis.liveNotices(connection, audience).whenComplete((notices, failure) -> {
            if (failure == null) {
                mine.notices().complete(notices);
            } else {
                entries.remove(audience, mine);
                mine.notices().completeExceptionally(failure);
            }
        });
        return mine.notices();
    }

    /**
     * The audience's channel said it changed: the next read asks Redis. Every stream that follows the audience passes
     * the message on; only the first of them drops the entry (each publish or withdrawal is announced once, with its id).
     */
    public void changed(String audience, String message) {
        if (message.equals(lastChange.put(audience, message))) return;
        if (lastChange.size() > MAX_AUDIENCES) lastChange.clear();
        entries.remove(audience);
    }

    private void forgetOldest() {
        long[] times = entries.values().stream().mapToLong(Entry::askedAtNanos).sorted().toArray();
        if (times.length == 0) return;
        long median = times[times.length / 2];
        entries.values().removeIf(entry -> entry.askedAtNanos() <= median);
    }
}
