package io.readmark.bench.layouts;

import io.lettuce.core.ScriptOutputType;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout A: two keys per user, {@code rm:{u:U}:z} (every unread entry and read tombstone in one sorted set, newest at
 * the head) and {@code rm:{u:U}:h} (per author the newest-first entries packed 12 bytes each, the total and the
 * floors); a delivery is one script of three calls on them (see {@code a_lib.lua}). Counts are one HGETALL, an
 * author's page one HGET; the merged page and every write are one script each. Keys carry the user's hash tag, as the product's do.
 */
public final class TwoKeyLayout implements Layout {

    private static final String LIB = "a_lib.lua";
    private static final LuaScript DELIVER = LuaScript.of("a_deliver.lua", LIB);
    private static final LuaScript READ = LuaScript.of("a_read.lua", LIB);
    private static final LuaScript READ_ALL = LuaScript.of("a_read_all.lua", LIB);
    private static final LuaScript ALL_READ = LuaScript.of("a_all_read.lua", LIB);
    private static final LuaScript MERGED_PAGE = LuaScript.of("a_merged_page.lua", LIB);

    private final ScriptCalls calls;
    private final byte[] cap;
    private final byte[] maxMarks;
    private final String name;
    private final Map<String, String> redisConfig;

    /**
     * On Redis's default encodings.
     *
     * @param maxUnreadPerAuthor the product's cap per (user, author)
     * @param maxMarks           read tombstones kept per user, as the product keeps read marks
     */
    public TwoKeyLayout(RedisConnections redis, int maxUnreadPerAuthor, int maxMarks) {
        this(redis, maxUnreadPerAuthor, maxMarks, "A", Map.of());
    }

    /**
     * Layout A on a Redis that keeps sorted sets of up to {@code entries} entries, and hash values of up to
     * {@code entries} bytes, as listpacks: a heavy user's z and h stay compact, and every insert scans further.
     */
    public static TwoKeyLayout withListpacksUpTo(RedisConnections redis, int maxUnreadPerAuthor, int maxMarks, int entries) {
        // By the names Redis 6.2 knows too; 7.0 takes them for the listpack settings.
        return new TwoKeyLayout(redis, maxUnreadPerAuthor, maxMarks, "A/" + entries,
                Map.of("zset-max-ziplist-entries", Integer.toString(entries), "hash-max-ziplist-value", Integer.toString(entries)));
    }

    private TwoKeyLayout(RedisConnections redis, int maxUnreadPerAuthor, int maxMarks, String name, Map<String, String> redisConfig) {
        this.name = name;
        this.redisConfig = redisConfig;
        this.calls = new ScriptCalls(redis, List.of(DELIVER, READ, READ_ALL, ALL_READ, MERGED_PAGE));
        this.cap = UnreadKeys.decimal(maxUnreadPerAuthor);
        this.maxMarks = UnreadKeys.decimal(maxMarks);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, String> redisConfig() {
        return redisConfig;
    }

    @Override
    public Set<String> commandsOf(Operation operation) {
        return switch (operation) {
            case COUNTS -> Set.of("hgetall");
            case AUTHOR_PAGE -> Set.of("hget");
            default -> Set.of("evalsha");
        };
    }

    /** z, h, live, changes of a user. */
    private static byte[][] keys(long userId) {
        String tag = "rm:{u:" + userId + "}:";
        return new byte[][]{Entries.ascii(tag + "z"), Entries.ascii(tag + "h"), Entries.ascii(tag + "live"), Entries.ascii(tag + "changes")};
    }

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        calls.send(DELIVER, keys(userId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId),
                Entries.record(Entries.seconds(publishedAtMillis), blogId), cap);
    }

    @Override
    public void read(long userId, long authorId, long blogId, long readAtMillis) {
        calls.send(READ, keys(userId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId), Entries.id(blogId),
                UnreadKeys.decimal(Entries.seconds(readAtMillis)), maxMarks);
    }

    @Override
    public void readAll(long userId, long authorId, long readAtMillis) {
        calls.send(READ_ALL, keys(userId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(Entries.seconds(readAtMillis)));
    }

    @Override
    public void allRead(long userId, long readAtMillis) {
        calls.send(ALL_READ, keys(userId), UnreadKeys.decimal(Entries.seconds(readAtMillis)));
    }

    @Override
    public void awaitWritten() {
        calls.await();
    }

    @Override
    public Counts counts(long userId) {
        return Entries.counts(calls.reads().sync().hgetall(keys(userId)[1]));
    }

    /** One HGET: the author's blob is the page, at most the cap's records. */
    @Override
    public Page authorPage(long userId, long authorId, int limit, String cursor) {
        byte[] blob = calls.reads().sync().hget(keys(userId)[1], UnreadKeys.decimal(authorId));
        if (blob == null) return new Page(List.of(), null);
        return Entries.page(Entries.after(blob, Entries.authorCursorRecord(cursor), limit + 1, authorId), limit, false);
    }

    @Override
    public Page mergedPage(long userId, int limit, String cursor) {
        byte[][] keys = keys(userId);
        byte[][] after = Entries.mergedCursorArgs(cursor);
        byte[][] args = after.length == 0 ? new byte[][]{UnreadKeys.decimal(limit + 1)}
                : new byte[][]{UnreadKeys.decimal(limit + 1), after[0], after[1]};
        List<Object> rows = calls.call(MERGED_PAGE, ScriptOutputType.MULTI, new byte[][]{keys[0], keys[1]}, args);
        return Entries.page(Entries.mergedItems(rows), limit, true);
    }

    @Override
    public void close() {
        calls.close();
    }
}
