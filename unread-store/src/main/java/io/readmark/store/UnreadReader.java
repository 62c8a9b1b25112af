package io.readmark.store;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads a user's unread counts and newest-first pages from Redis; never writes. */
public final class UnreadReader {

    private final RedisClusterCommands<String, String> redis;
    private final UnreadKeys keys;

    public UnreadReader(RedisConnections.Connection connection, UnreadKeys keys) {
        this.redis = connection.sync();
        this.keys = keys;
    }

    /** Counts of a user; a user Redis has never heard of has zero unread. */
    public UnreadCounts counts(long userId) {
        Map<String, String> hash = redis.hgetall(keys.counts(userId));
        long total = 0;
        Map<Long, Long> byAuthor = new TreeMap<>();
        for (Map.Entry<String, String> field : hash.entrySet()) {
            if (field.getKey().equals("total")) {
                total = Long.parseLong(field.getValue());
            } else {
                byAuthor.put(Long.parseLong(field.getKey()), Long.parseLong(field.getValue()));
            }
        }
        return new UnreadCounts(userId, total, byAuthor);
    }

    /**
     * Newest-first page of a user's unread blogs by one author, continuing after {@code cursor} (null for the first).
     * @throws InvalidCursorException when the cursor is malformed
     */
    public UnreadPage page(long userId, long authorId, int limit, String cursor) {
        String key = keys.unread(userId, authorId);
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        List<ScoredValue<String>> candidates;
        if (after == null) {
            candidates = redis.zrevrangebyscoreWithScores(key, Range.unbounded(), Limit.create(0, limit + 1));
        } else {
            // Entries sharing the cursor's score may sit before it; fetch enough to skip them.
            long ties = redis.zcount(key, Range.create(after.score(), after.score()));
            candidates = redis.zrevrangebyscoreWithScores(key,
                    Range.from(Range.Boundary.unbounded(), Range.Boundary.including(after.score())),
                    Limit.create(0, ties + limit + 1));
        }
        List<UnreadItem> items = new ArrayList<>(limit);
        PageCursor last = null;
        boolean more = false;
        for (ScoredValue<String> entry : candidates) {
            long score = (long) entry.getScore();
            if (after != null && !after.precedes(score, entry.getValue())) continue;
            if (items.size() == limit) {
                more = true;
                break;
            }
            items.add(new UnreadItem(Long.parseLong(entry.getValue()), authorId, Instant.ofEpochMilli(score)));
            last = new PageCursor(score, entry.getValue());
        }
        return new UnreadPage(items, more ? last.encode() : null);
    }
}
