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
import java.util.function.Function;

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
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        boolean previousCursor = after != null && PreviousLayoutReads.issued(after);
        long blogId = after == null ? 0 : UnreadKeys.id(previousCursor ? PreviousLayoutReads.member(after) : after.member());
        if (blogId < 0) throw new InvalidCursorException();
        if (previous != null) {
            Optional<UnreadPage> old = previous.page(userId, authorId, limit, after);
            if (old.isPresent()) return old.get();
        }
        String[] hKey = {keys.h(userId)};
        String author = Long.toString(authorId);
        String fetch = Integer.toString(limit + (previousCursor ? 2 : 1));
        List<Object> rows = after == null
                ? ReadScript.AUTHOR_PAGE.run(redis, hKey, author, fetch)
                : ReadScript.AUTHOR_PAGE.run(redis, hKey, author, fetch, Long.toString(EntryRecord.second(after.score())),
                        previousCursor ? "0" : Long.toString(blogId));
        long shown = previousCursor ? blogId : -1;
        List<UnreadItem> items = new ArrayList<>(rows.size() / 2);
        for (int i = 0; i + 1 < rows.size(); i += 2) {
            long blog = Long.parseLong((String) rows.get(i));
            if (blog != shown) items.add(new UnreadItem(blog, authorId, Instant.ofEpochSecond(Long.parseLong((String) rows.get(i + 1)))));
        }
        return firstPage(items, limit, last -> new PageCursor(last.publishedAt().toEpochMilli(), Long.toString(last.blogId())).encode());
    }

    /**
     * Newest-first page of a user's unread blogs across all authors, continuing after {@code cursor} (null for the
     * first): one {@code merged_page.lua}, O(limit log N) to find the page and O(the per-user cap) to name authors.
     * @throws InvalidCursorException when the cursor is malformed
     */
    public UnreadPage mergedPage(long userId, int limit, String cursor) {
        MergedCursor.After position = cursor == null ? null : MergedCursor.decode(cursor);
        if (previous != null) {
            Optional<UnreadPage> old = previous.mergedPage(userId, limit, position == null ? null : position.item());
            if (old.isPresent()) return old.get();
        }
        boolean previousCursor = position != null && position.previousLayout();
        UnreadItem after = position == null ? null : position.onCurrentLayout();
        String[] userKeys = {keys.z(userId), keys.h(userId)};
        String fetch = Integer.toString(limit + (previousCursor ? 2 : 1));
        List<Object> rows = after == null
                ? ReadScript.MERGED_PAGE.run(redis, userKeys, fetch)
                : ReadScript.MERGED_PAGE.run(redis, userKeys, fetch, Long.toString(EntryRecord.second(after.publishedAt().toEpochMilli())),
                        Long.toString(after.blogId()));
        long shown = previousCursor ? position.item().blogId() : -1;
        List<UnreadItem> items = new ArrayList<>(rows.size() / 3);
        for (int i = 0; i + 2 < rows.size(); i += 3) {
            long blog = Long.parseLong((String) rows.get(i));
            // An entry whose author no record names breaks the invariant (reconcile finds it): shown under author 0.
            Object author = rows.get(i + 2);
            if (blog != shown) items.add(new UnreadItem(blog, author == null ? 0 : Long.parseLong((String) author),
                    Instant.ofEpochSecond(Long.parseLong((String) rows.get(i + 1)))));
        }
        return firstPage(items, limit, MergedCursor::encode);
    }

    /**
     * The first {@code limit} items, and a cursor after the last of them if more follow. A cursor of the previous
     * layout's pages goes on from the start of its second (that layout ordered a second's entries by millisecond), so
     * its page is fetched with one row more, for the cursor's own blog, which the page before showed.
     */
    private static UnreadPage firstPage(List<UnreadItem> items, int limit, Function<UnreadItem, String> cursorAfter) {
        if (items.size() <= limit) return new UnreadPage(items, null);
        List<UnreadItem> page = List.copyOf(items.subList(0, limit));
        return new UnreadPage(page, cursorAfter.apply(page.getLast()));
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
