package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Reads a user's unread counts, newest-first pages and single blogs from Redis; never writes. */
public final class UnreadReader {

    private final RedisClusterCommands<String, String> redis;
    private final RedisConnections.Connection connection;
    private final UnreadKeys keys;
    private final int hashReadFields;

    public UnreadReader(RedisConnections.Connection connection, UnreadKeys keys) {
        this(connection, keys, BoundedHashRead.FIELDS);
    }

    /** @param hashReadFields the fields of one {@code HSCAN} of the counts hash: a hash up to about this many is read whole */
    public UnreadReader(RedisConnections.Connection connection, UnreadKeys keys, int hashReadFields) {
        this.connection = connection;
        this.redis = connection.sync();
        this.keys = keys;
        this.hashReadFields = hashReadFields;
    }

    /**
     * Counts of a user; a user Redis has never heard of has zero unread. One bounded {@code HSCAN} reads an ordinary
     * user's counts hash whole; past about {@code hashReadFields} authors a second call answers the totals exactly
     * and some authors' counts ({@link SampledCounts}).
     */
    public UnreadCounts counts(long userId) {
        CountsHashOutput.Fields fields = redis.dispatch(CommandType.HSCAN, new CountsHashOutput(), scanArgs(userId));
        return fields.whole() ? fields.counts(userId)
                : SampledCounts.of(userId, BoundedHashRead.sample(connection, keys.counts(userId), hashReadFields, CountsHashOutput.TOTALS));
    }

    /** As {@link #counts(long)}, without waiting: the stage completes on Lettuce's I/O thread. */
    public CompletionStage<UnreadCounts> countsAsync(long userId) {
        return connection.async().dispatch(CommandType.HSCAN, new CountsHashOutput(), scanArgs(userId))
                .thenCompose(fields -> fields.whole() ? CompletableFuture.completedFuture(fields.counts(userId))
                        : BoundedHashRead.sampleAsync(connection, keys.counts(userId), hashReadFields, CountsHashOutput.TOTALS)
                                .thenApply(sample -> SampledCounts.of(userId, sample)));
    }

    private CommandArgs<String, String> scanArgs(long userId) {
        return new CommandArgs<>(StringCodec.UTF8).addKey(keys.counts(userId)).add("0").add("COUNT").add(hashReadFields);
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

    /**
     * Newest-first page of a user's unread blogs across all authors ({@link UnreadItem#NEWEST_FIRST}), continuing
     * after {@code cursor} (null for the first). One read-only script over the user's merged index
     * ({@code merged_page.lua}): O(log² N + limit) Redis work for N unread entries, whatever the number of authors
     * and of entries sharing a millisecond.
     * @throws InvalidCursorException when the cursor is malformed
     */
    public UnreadPage mergedPage(long userId, int limit, String cursor) {
        UnreadItem after = cursor == null ? null : MergedCursor.decode(cursor);
        String[] mergedKey = {keys.merged(userId)};
        String fetch = Integer.toString(limit + 1);
        List<Object> rows = after == null
                ? ReadScript.MERGED_PAGE.run(redis, mergedKey, fetch)
                : ReadScript.MERGED_PAGE.run(redis, mergedKey, fetch, Long.toString(after.publishedAt().toEpochMilli()),
                        MergedMember.hex(after.authorId(), after.blogId()));
        List<UnreadItem> items = new ArrayList<>(Math.min(limit, rows.size() / 2));
        for (int i = 0; i < rows.size() && items.size() < limit; i += 2) {
            items.add(MergedMember.item((String) rows.get(i), (String) rows.get(i + 1)));
        }
        boolean more = rows.size() / 2 > limit;
        return new UnreadPage(items, more ? MergedCursor.encode(items.getLast()) : null);
    }

    /** True when the blog is among the user's unread blogs by that author. */
    public boolean isUnread(long userId, long authorId, long blogId) {
        return redis.zscore(keys.unread(userId, authorId), Long.toString(blogId)) != null;
    }
}
