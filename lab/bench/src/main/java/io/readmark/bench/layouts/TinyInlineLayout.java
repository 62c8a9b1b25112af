package io.readmark.bench.layouts;

import io.lettuce.core.ScriptOutputType;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout B: a small user's whole state is one field of a bucket hash {@code rm:{b:N}:tiny} (N = userId / 128,
 * 20 bytes per entry or read tombstone), and a user moves to layout A's keys, under the bucket's hash tag, once it
 * needs more than {@value #MAX_INLINE} records or a floor (see {@code b_lib.lua}). Every write and the merged page are
 * one script that looks for A's keys first, then for the inline field; counts and an author's page are read as A
 * reads them, then, for a user without h, from the inline field ({@link Inline}). It needs {@code hash-max-listpack-value} of 128: at the
 * default 64 a value of four records would turn the whole bucket into a hashtable.
 */
public final class TinyInlineLayout implements Layout {

    /** Users per bucket: 128 fields stay far below hash-max-listpack-entries (512). */
    static final int USERS_PER_BUCKET = 128;
    /** Records inline (6 x 20 bytes), within a listpack value of {@value #LISTPACK_VALUE} bytes. */
    static final int MAX_INLINE = 6;
    static final int LISTPACK_VALUE = 128;

    private static final String[] LIBS = {"a_lib.lua", "b_lib.lua"};
    private static final LuaScript DELIVER = LuaScript.of("b_deliver.lua", LIBS);
    private static final LuaScript READ = LuaScript.of("b_read.lua", LIBS);
    private static final LuaScript READ_ALL = LuaScript.of("b_read_all.lua", LIBS);
    private static final LuaScript ALL_READ = LuaScript.of("b_all_read.lua", LIBS);
    private static final LuaScript MERGED_PAGE = LuaScript.of("b_merged_page.lua", LIBS);
    private static final byte[] MAX_INLINE_TEXT = UnreadKeys.decimal(MAX_INLINE);

    private final ScriptCalls calls;
    private final byte[] cap;
    private final byte[] maxMarks;

    /**
     * @param maxUnreadPerAuthor the product's cap per (user, author), at least {@value #MAX_INLINE}
     * @param maxMarks           read tombstones kept per user once on A's keys
     */
    public TinyInlineLayout(RedisConnections redis, int maxUnreadPerAuthor, int maxMarks) {
        if (maxUnreadPerAuthor < MAX_INLINE) throw new IllegalArgumentException("the cap must be at least " + MAX_INLINE);
        this.calls = new ScriptCalls(redis, List.of(DELIVER, READ, READ_ALL, ALL_READ, MERGED_PAGE));
        this.cap = UnreadKeys.decimal(maxUnreadPerAuthor);
        this.maxMarks = UnreadKeys.decimal(maxMarks);
    }

    @Override
    public String name() {
        return "B";
    }

    @Override
    public Map<String, String> redisConfig() {
        // By the name Redis 6.2 knows too; 7.0 takes it for hash-max-listpack-value.
        return Map.of("hash-max-ziplist-value", Integer.toString(LISTPACK_VALUE));
    }

    @Override
    public Set<String> commandsOf(Operation operation) {
        return switch (operation) {
            case COUNTS -> Set.of("hgetall", "hget");
            case AUTHOR_PAGE -> Set.of("hget", "exists");
            default -> Set.of("evalsha");
        };
    }

    /** bucket, z, h, live, changes of a user, all under the bucket's hash tag. */
    private static byte[][] keys(long userId) {
        String tag = "rm:{b:" + userId / USERS_PER_BUCKET + "}:";
        return new byte[][]{Entries.ascii(tag + "tiny"), Entries.ascii(tag + "z:" + userId), Entries.ascii(tag + "h:" + userId),
                Entries.ascii(tag + "live:" + userId), Entries.ascii(tag + "changes:" + userId)};
    }

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        calls.send(DELIVER, keys(userId), UnreadKeys.decimal(userId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId),
                Entries.record(Entries.seconds(publishedAtMillis), blogId), Entries.id(authorId), cap, MAX_INLINE_TEXT);
    }

    @Override
    public void read(long userId, long authorId, long blogId, long readAtMillis) {
        calls.send(READ, keys(userId), UnreadKeys.decimal(userId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId),
                Entries.id(blogId), UnreadKeys.decimal(Entries.seconds(readAtMillis)), maxMarks, MAX_INLINE_TEXT);
    }

    @Override
    public void readAll(long userId, long authorId, long readAtMillis) {
        calls.send(READ_ALL, keys(userId), UnreadKeys.decimal(userId), UnreadKeys.decimal(authorId),
                UnreadKeys.decimal(Entries.seconds(readAtMillis)));
    }

    @Override
    public void allRead(long userId, long readAtMillis) {
        calls.send(ALL_READ, keys(userId), UnreadKeys.decimal(userId), UnreadKeys.decimal(Entries.seconds(readAtMillis)));
    }

    @Override
    public void awaitWritten() {
        calls.await();
    }

    /** A user on A's keys is read as layout A reads it; a user without h by its inline field, decoded here. */
    @Override
    public Counts counts(long userId) {
        byte[][] keys = keys(userId);
        Map<byte[], byte[]> h = calls.reads().sync().hgetall(keys[2]);
        if (!h.isEmpty()) return Entries.counts(h);
        return Inline.counts(calls.reads().sync().hget(keys[0], UnreadKeys.decimal(userId)));
    }

    /** As {@link #counts}: the author's blob on A's keys, else the inline field. */
    @Override
    public Page authorPage(long userId, long authorId, int limit, String cursor) {
        byte[][] keys = keys(userId);
        byte[] cursorRecord = Entries.authorCursorRecord(cursor);
        byte[] blob = calls.reads().sync().hget(keys[2], UnreadKeys.decimal(authorId));
        if (blob == null && calls.reads().sync().exists(keys[2]) == 0) {
            blob = Inline.blob(calls.reads().sync().hget(keys[0], UnreadKeys.decimal(userId)), authorId);
        }
        if (blob == null) return new Page(List.of(), null);
        return Entries.page(Entries.after(blob, cursorRecord, limit + 1, authorId), limit, false);
    }

    @Override
    public Page mergedPage(long userId, int limit, String cursor) {
        byte[][] keys = keys(userId);
        byte[][] after = Entries.mergedCursorArgs(cursor);
        byte[][] args = after.length == 0 ? new byte[][]{UnreadKeys.decimal(userId), UnreadKeys.decimal(limit + 1)}
                : new byte[][]{UnreadKeys.decimal(userId), UnreadKeys.decimal(limit + 1), after[0], after[1]};
        List<Object> rows = calls.call(MERGED_PAGE, ScriptOutputType.MULTI, new byte[][]{keys[0], keys[1], keys[2]}, args);
        return Entries.page(Entries.mergedItems(rows), limit, true);
    }

    @Override
    public void close() {
        calls.close();
    }
}
