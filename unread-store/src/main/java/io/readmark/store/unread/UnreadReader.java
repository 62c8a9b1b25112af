package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Reads a user's unread counts, newest-first pages and single blogs from Redis; never writes. Each read is one
 * read-only script over the user's keys (counters.lua), or for counts one HGETALL, bounded by the per-user cap of
 * unread entries. During an upgrade from the layout before z and h, a user not converted yet is answered from its old
 * keys ({@link PreviousLayoutReads}).
 */
public final class UnreadReader {

    private final RedisClusterCommands<String, String> redis;
    private final RedisConnections.Connection connection;
    private final UnreadKeys keys;
    /** Null unless an upgrade is under way. */
    private final PreviousLayoutReads previous;

    public UnreadReader(RedisConnections.Connection connection, UnreadKeys keys) {
        this(connection, keys, false);
    }

    /**
     * @param layoutUpgrade whether users may still be on the layout before z and h ({@code READMARK_LAYOUT_UPGRADE}):
     *                      each read then first asks whether the user's old keys are still there
     */
    public UnreadReader(RedisConnections.Connection connection, UnreadKeys keys, boolean layoutUpgrade) {
        this.connection = connection;
        this.redis = connection.sync();
        this.keys = keys;
        this.previous = layoutUpgrade ? new PreviousLayoutReads(connection, keys) : null;
    }

    /**
     * Counts of a user; a user Redis has never heard of has zero unread. One {@code HGETALL} of h, each author's count
     * being its records' length over {@link EntryRecord#BYTES}: O(the per-user cap).
     */
    public UnreadCounts counts(long userId) {
        if (previous != null) {
            Optional<UnreadCounts> old = previous.counts(userId);
            if (old.isPresent()) return old.get();
        }
        return redis.dispatch(CommandType.HGETALL, new CountsHashOutput(), hKey(userId)).counts(userId);
    }

    /** As {@link #counts(long)}, without waiting: the stage completes on Lettuce's I/O thread. */
    public CompletionStage<UnreadCounts> countsAsync(long userId) {
        if (previous != null) {
            return previous.countsAsync(userId).thenCompose(old -> old.isPresent()
                    ? CompletableFuture.completedFuture(old.get()) : currentCountsAsync(userId));
        }
        return currentCountsAsync(userId);
    }

    private CompletionStage<UnreadCounts> currentCountsAsync(long userId) {
        return connection.async().dispatch(CommandType.HGETALL, new CountsHashOutput(), hKey(userId))
                .thenApply(fields -> fields.counts(userId));
    }

    private CommandArgs<String, String> hKey(long userId) {
        return new CommandArgs<>(StringCodec.UTF8).addKey(keys.h(userId));
    }

    /**
     * Newest-first page of a user's unread blogs by one author, continuing after {@code cursor} (null for the first):
     * one {@code author_page.lua}, O(log cap + limit).
     * @throws InvalidCursorException when the cursor is malformed
     */
    public UnreadPage page(long userId, long authorId, int limit, String cursor) {
        String[] hKey = {keys.h(userId)};
        String author = Long.toString(authorId);
        String fetch = Integer.toString(limit + 1);
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        long blogId = after == null ? 0 : UnreadKeys.id(after.member());
        if (blogId < 0) throw new InvalidCursorException();
        if (previous != null) {
            Optional<UnreadPage> old = previous.page(userId, authorId, limit, after);
            if (old.isPresent()) return old.get();
        }
        List<Object> rows;
        if (after == null) {
            rows = ReadScript.AUTHOR_PAGE.run(redis, hKey, author, fetch);
        } else {
            rows = ReadScript.AUTHOR_PAGE.run(redis, hKey, author, fetch, Long.toString(EntryRecord.second(after.score())),
                    Long.toString(blogId));
        }
        List<UnreadItem> items = new ArrayList<>(Math.min(limit, rows.size() / 2));
        for (int i = 0; i + 1 < rows.size() && items.size() < limit; i += 2) {
            items.add(new UnreadItem(Long.parseLong((String) rows.get(i)), authorId,
                    Instant.ofEpochSecond(Long.parseLong((String) rows.get(i + 1)))));
        }
        boolean more = rows.size() / 2 > limit;
        UnreadItem last = more ? items.getLast() : null;
        return new UnreadPage(items, more ? new PageCursor(last.publishedAt().toEpochMilli(), Long.toString(last.blogId())).encode() : null);
    }

    /**
     * Newest-first page of a user's unread blogs across all authors, continuing after {@code cursor} (null for the
     * first): one {@code merged_page.lua}, O(limit log N) to find the page and O(the per-user cap) to name authors.
     * @throws InvalidCursorException when the cursor is malformed
     */
    public UnreadPage mergedPage(long userId, int limit, String cursor) {
        UnreadItem after = cursor == null ? null : MergedCursor.decode(cursor);
        if (previous != null) {
            Optional<UnreadPage> old = previous.mergedPage(userId, limit, after);
            if (old.isPresent()) return old.get();
        }
        String[] userKeys = {keys.z(userId), keys.h(userId)};
        String fetch = Integer.toString(limit + 1);
        List<Object> rows = after == null
                ? ReadScript.MERGED_PAGE.run(redis, userKeys, fetch)
                : ReadScript.MERGED_PAGE.run(redis, userKeys, fetch, Long.toString(EntryRecord.second(after.publishedAt().toEpochMilli())),
                        Long.toString(after.blogId()));
        List<UnreadItem> items = new ArrayList<>(Math.min(limit, rows.size() / 3));
        for (int i = 0; i + 2 < rows.size() && items.size() < limit; i += 3) {
            // An entry whose author no record names breaks the invariant (reconcile finds it): shown under author 0.
            Object author = rows.get(i + 2);
            items.add(new UnreadItem(Long.parseLong((String) rows.get(i)), author == null ? 0 : Long.parseLong((String) author),
                    Instant.ofEpochSecond(Long.parseLong((String) rows.get(i + 1)))));
        }
        boolean more = rows.size() / 3 > limit;
        return new UnreadPage(items, more ? MergedCursor.encode(items.getLast()) : null);
    }

    /** True when the blog is among the user's unread blogs by that author: one {@code is_unread.lua}, O(log cap). */
    public boolean isUnread(long userId, long authorId, long blogId) {
        if (previous != null) {
            Optional<Boolean> old = previous.isUnread(userId, authorId, blogId);
            if (old.isPresent()) return old.get();
        }
        return ReadScript.IS_UNREAD.runForInteger(redis, new String[]{keys.z(userId), keys.h(userId)},
                Long.toString(authorId), Long.toString(blogId)) == 1;
    }
}
