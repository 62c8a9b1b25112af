package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Answers for a user {@code readmark migrate} has not converted yet, from the keys of the release before z and h
 * ({@code unread:A}, {@code counts}, {@code merged}), as that release answered them. Only during an upgrade
 * ({@code READMARK_LAYOUT_UPGRADE}): the processor then converts a user before writing to it, so an unconverted user's
 * old keys hold its whole state and nothing changes them until the conversion deletes them, in one script. Hence each
 * answer is checked after it is read: old keys still there mean it was read whole before the conversion; gone, the
 * caller reads z and h. Each read costs one {@code EXISTS} more for a converted user, two for an unconverted one.
 */
final class PreviousLayoutReads {

    /** Marks an author page's cursor as issued here, so a page of h goes on from the start of its second. */
    private static final String CURSOR_MARK = "p";

    private final RedisConnections.Connection connection;
    private final RedisClusterCommands<String, String> redis;
    private final UnreadKeys keys;

    PreviousLayoutReads(RedisConnections.Connection connection, UnreadKeys keys) {
        this.connection = connection;
        this.redis = connection.sync();
        this.keys = keys;
    }

    /** Counts from the old counts hash: HGETALL, O(the authors with unread). Empty for a converted user. */
    Optional<UnreadCounts> counts(long userId) {
        if (!unconverted(userId)) return Optional.empty();
        UnreadCounts counts = redis.dispatch(CommandType.HGETALL, CountsHashOutput.previousLayout(), countsKey(userId)).counts(userId);
        return unconverted(userId) ? Optional.of(counts) : Optional.empty();
    }

    /** As {@link #counts(long)}, without waiting. */
    CompletionStage<Optional<UnreadCounts>> countsAsync(long userId) {
        return unconvertedAsync(userId).thenCompose(unconverted -> !unconverted
                ? CompletableFuture.completedFuture(Optional.empty())
                : connection.async().dispatch(CommandType.HGETALL, CountsHashOutput.previousLayout(), countsKey(userId))
                        .thenCompose(fields -> unconvertedAsync(userId)
                                .thenApply(still -> still ? Optional.of(fields.counts(userId)) : Optional.<UnreadCounts>empty())));
    }

    /**
     * One author's page from its old sorted set (score ms, member blogId), ZREVRANGEBYSCORE after the cursor:
     * O(log N + limit + entries sharing the cursor's millisecond). Empty for a converted user.
     */
    Optional<UnreadPage> page(long userId, long authorId, int limit, PageCursor cursor) {
        if (!unconverted(userId)) return Optional.empty();
        PageCursor after = cursor == null || !issued(cursor) ? cursor : new PageCursor(cursor.score(), member(cursor));
        String key = keys.unread(userId, authorId);
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
            last = new PageCursor(score, CURSOR_MARK + entry.getValue());
        }
        UnreadPage page = new UnreadPage(items, more ? last.encode() : null);
        return unconverted(userId) ? Optional.of(page) : Optional.empty();
    }

    /**
     * A page across authors from the old merged index (member authorId ‖ blogId, 8 bytes each, score ms), by that
     * release's {@code previous/merged_page.lua}: O(log² N + limit). Empty for a converted user.
     */
    Optional<UnreadPage> mergedPage(long userId, int limit, UnreadItem after) {
        if (!unconverted(userId)) return Optional.empty();
        String[] mergedKey = {keys.merged(userId)};
        String fetch = Integer.toString(limit + 1);
        List<Object> rows = after == null
                ? ReadScript.PREVIOUS_MERGED_PAGE.run(redis, mergedKey, fetch)
                : ReadScript.PREVIOUS_MERGED_PAGE.run(redis, mergedKey, fetch, Long.toString(after.publishedAt().toEpochMilli()),
                        HexFormat.of().toHexDigits(after.authorId()) + HexFormat.of().toHexDigits(after.blogId()));
        List<UnreadItem> items = new ArrayList<>(Math.min(limit, rows.size() / 2));
        for (int i = 0; i + 1 < rows.size() && items.size() < limit; i += 2) {
            String member = (String) rows.get(i);
            items.add(new UnreadItem(HexFormat.fromHexDigitsToLong(member, 16, 32), HexFormat.fromHexDigitsToLong(member, 0, 16),
                    Instant.ofEpochMilli((long) Double.parseDouble((String) rows.get(i + 1)))));
        }
        boolean more = rows.size() / 2 > limit;
        UnreadPage page = new UnreadPage(items, more ? MergedCursor.encodePrevious(items.getLast()) : null);
        return unconverted(userId) ? Optional.of(page) : Optional.empty();
    }

    /** Whether the old set of the author holds the blog: ZSCORE. Empty for a converted user. */
    Optional<Boolean> isUnread(long userId, long authorId, long blogId) {
        if (!unconverted(userId)) return Optional.empty();
        boolean unread = redis.zscore(keys.unread(userId, authorId), Long.toString(blogId)) != null;
        return unconverted(userId) ? Optional.of(unread) : Optional.empty();
    }

    /** Whether an author page's cursor came from here. */
    static boolean issued(PageCursor cursor) {
        return cursor.member().startsWith(CURSOR_MARK);
    }

    /** The blogId of a cursor {@link #issued} here. */
    static String member(PageCursor cursor) {
        return cursor.member().substring(CURSOR_MARK.length());
    }

    /** Any of the keys the conversion deletes last; an author's set without them is drift the conversion finds later. */
    private boolean unconverted(long userId) {
        return redis.exists(keys.counts(userId), keys.marks(userId), keys.merged(userId)) > 0;
    }

    private CompletionStage<Boolean> unconvertedAsync(long userId) {
        return connection.async().exists(keys.counts(userId), keys.marks(userId), keys.merged(userId)).thenApply(found -> found > 0);
    }

    private CommandArgs<String, String> countsKey(long userId) {
        return new CommandArgs<>(StringCodec.UTF8).addKey(keys.counts(userId));
    }
}
