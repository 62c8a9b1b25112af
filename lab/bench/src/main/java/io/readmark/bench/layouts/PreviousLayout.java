package io.readmark.bench.layouts;

import io.lettuce.core.Limit;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.PageCursor;
import io.readmark.store.unread.UnreadKeys;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout L0, the previous release's: per user and author a sorted set of blog ids by publishedAt (ms), and per user the
 * counts hash, the marks of read blogs, the floors and the merged index of every entry. Its own scripts, unchanged,
 * with the keys and arguments its writer sent; counts, author pages and merged pages are read as its reader read them.
 * An AllRead is its chain: a step that raises the floor and scans the counts for authors, each author's removal, and
 * the notice floor. Runs on Redis's stock listpack thresholds, as that release was deployed: the study's Redis starts
 * with the product's.
 */
public final class PreviousLayout implements Layout {

    private static final String[] HELPERS = {"members.lua", "counters.lua", "notify.lua", "notices.lua"};
    private static final LuaScript DELIVER = LuaScript.previous(with("deliver.lua", "deliver_one.lua"));
    private static final LuaScript DELIVER_MANY = LuaScript.previous(with("deliver.lua", "deliver_many.lua"));
    private static final LuaScript READ = LuaScript.previous(with("remove.lua", "remove_one.lua"));
    private static final LuaScript READ_ALL = LuaScript.previous(with("read_all.lua"));
    private static final LuaScript ALL_READ = LuaScript.previous(with("all_read.lua"));
    private static final LuaScript ALL_READ_AUTHOR = LuaScript.previous(with("all_read_author.lua"));
    private static final LuaScript NOTICES_ALL_READ = LuaScript.previous(with("notices_all_read.lua"));
    private static final LuaScript MERGED_PAGE = LuaScript.previous("members.lua", "merged_page.lua");

    /** Keys per user of deliver.lua, remove.lua and deliver_many.lua. */
    private static final int USER_KEYS = 7;
    /** Users of one deliver_many.lua call, that release's MAX_USERS_PER_CALL. */
    private static final int MAX_USERS_PER_SCRIPT = 100;
    private static final byte[] KIND_READ = Entries.ascii("read");
    private static final byte[] FLOOR_ALL = Entries.ascii("all");
    /** Counts fields one AllRead step scans, as that release's writer asked. */
    private static final byte[] ALL_READ_SCAN = UnreadKeys.decimal(100);
    private static final byte[] FIRST_CURSOR = UnreadKeys.decimal(0);
    /** Fields of one HSCAN of the counts hash, as that release's reader asked: an ordinary user's comes whole. */
    private static final int COUNTS_SCAN = 1000;

    private final UnreadKeys keys = new UnreadKeys(UnreadKeys.DEFAULT_PREFIX);
    private final NoticeKeys noticeKeys = new NoticeKeys(UnreadKeys.DEFAULT_PREFIX);
    private final ScriptCalls calls;
    private final byte[] cap;
    private final byte[] maxMarks;

    /**
     * @param maxUnreadPerAuthor the cap per (user, author)
     * @param maxMarks           marks of read blogs kept per user
     */
    public PreviousLayout(RedisConnections redis, int maxUnreadPerAuthor, int maxMarks) {
        this.calls = new ScriptCalls(redis, List.of(DELIVER, DELIVER_MANY, READ, READ_ALL, ALL_READ, ALL_READ_AUTHOR, NOTICES_ALL_READ, MERGED_PAGE));
        this.cap = UnreadKeys.decimal(maxUnreadPerAuthor);
        this.maxMarks = UnreadKeys.decimal(maxMarks);
    }

    private static String[] with(String... files) {
        String[] all = Arrays.copyOf(HELPERS, HELPERS.length + files.length);
        System.arraycopy(files, 0, all, HELPERS.length, files.length);
        return all;
    }

    @Override
    public String name() {
        return "L0";
    }

    @Override
    public Map<String, String> redisConfig() {
        return ProductLayout.STOCK;
    }

    @Override
    public Set<String> commandsOf(Operation operation) {
        return switch (operation) {
            case COUNTS -> Set.of("hscan");
            case AUTHOR_PAGE -> Set.of("zrevrangebyscore", "zcount");
            default -> Set.of("evalsha");
        };
    }

    /** The seven keys of deliver.lua and remove.lua. */
    private byte[][] userKeys(long userId, long authorId) {
        return new byte[][]{keys.unreadBytes(userId, authorId), keys.countsBytes(userId), keys.marksBytes(userId),
                keys.floorsBytes(userId), keys.mergedBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId)};
    }

    /** The six keys of read_all.lua and all_read_author.lua. */
    private byte[][] authorKeys(long userId, long authorId) {
        return new byte[][]{keys.unreadBytes(userId, authorId), keys.countsBytes(userId), keys.floorsBytes(userId),
                keys.mergedBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId)};
    }

    /** The merged index's member: authorId then blogId, 8 big-endian bytes each. */
    private static byte[] member(long authorId, long blogId) {
        return ByteBuffer.allocate(16).put(Entries.id(authorId)).put(Entries.id(blogId)).array();
    }

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        calls.send(DELIVER, userKeys(userId, authorId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId),
                UnreadKeys.decimal(publishedAtMillis), cap, member(authorId, blogId));
    }

    @Override
    public boolean deliversInBursts() {
        return true;
    }

    /**
     * As that release's writer grouped a post's followers: scripts of up to {@value #MAX_USERS_PER_SCRIPT}
     * users, deliver_many.lua with each user's seven keys in turn and deliver_one.lua's arguments, a lone user by
     * deliver_one.lua.
     */
    @Override
    public void deliverToEach(List<Long> userIds, long authorId, long blogId, long publishedAtMillis) {
        for (int from = 0; from < userIds.size(); from += MAX_USERS_PER_SCRIPT) {
            List<Long> users = userIds.subList(from, Math.min(userIds.size(), from + MAX_USERS_PER_SCRIPT));
            if (users.size() == 1) {
                deliver(users.getFirst(), authorId, blogId, publishedAtMillis);
                continue;
            }
            byte[][] burstKeys = new byte[users.size() * USER_KEYS][];
            for (int i = 0; i < users.size(); i++) System.arraycopy(userKeys(users.get(i), authorId), 0, burstKeys, i * USER_KEYS, USER_KEYS);
            calls.send(DELIVER_MANY, burstKeys, UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId),
                    UnreadKeys.decimal(publishedAtMillis), cap, member(authorId, blogId));
        }
    }

    @Override
    public void read(long userId, long authorId, long blogId, long readAtMillis) {
        calls.send(READ, userKeys(userId, authorId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId),
                UnreadKeys.decimal(readAtMillis), maxMarks, member(authorId, blogId), KIND_READ);
    }

    @Override
    public void readAll(long userId, long authorId, long readAtMillis) {
        calls.send(READ_ALL, authorKeys(userId, authorId), UnreadKeys.decimal(authorId), UnreadKeys.decimal(readAtMillis),
                Entries.id(authorId));
    }

    /** Each step's reply {cursor, field, ...} names the authors to clear and whether another step follows. */
    @Override
    public void allRead(long userId, long readAtMillis) {
        byte[] readAt = UnreadKeys.decimal(readAtMillis);
        byte[][] stepKeys = {keys.floorsBytes(userId), keys.countsBytes(userId), Entries.ascii(noticeKeys.audiences(userId)),
                keys.liveBytes(userId), keys.changesBytes(userId)};
        byte[] cursor = FIRST_CURSOR;
        do {
            List<byte[]> reply = calls.apply(ALL_READ, ScriptOutputType.MULTI, stepKeys, readAt, cursor, ALL_READ_SCAN);
            for (byte[] field : reply.subList(1, reply.size())) {
                long authorId = UnreadKeys.id(Entries.text(field));
                if (authorId < 0) continue; // total, seen, notices, v
                calls.send(ALL_READ_AUTHOR, authorKeys(userId, authorId), UnreadKeys.decimal(authorId), readAt, Entries.id(authorId));
            }
            cursor = reply.getFirst();
        } while (!Arrays.equals(cursor, FIRST_CURSOR));
        calls.send(NOTICES_ALL_READ, new byte[][]{keys.floorsBytes(userId), Entries.ascii(noticeKeys.inbox(userId)),
                Entries.ascii(noticeKeys.noticeReads(userId)), keys.countsBytes(userId), keys.liveBytes(userId),
                keys.changesBytes(userId), Entries.ascii(noticeKeys.audiences(userId))}, readAt, FLOOR_ALL);
    }

    @Override
    public void awaitWritten() {
        calls.await();
    }

    /** The counts hash: total, seen, notices, the version v, and one field per author. */
    @Override
    public Counts counts(long userId) {
        long total = 0;
        Map<Long, Long> byAuthor = new LinkedHashMap<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            MapScanCursor<byte[], byte[]> scan = calls.reads().sync().hscan(keys.countsBytes(userId), cursor,
                    ScanArgs.Builder.limit(COUNTS_SCAN));
            for (Map.Entry<byte[], byte[]> field : scan.getMap().entrySet()) {
                String name = Entries.text(field.getKey());
                long value = Long.parseLong(Entries.text(field.getValue()));
                if (name.equals("total")) total = value;
                else if (UnreadKeys.id(name) >= 0) byAuthor.put(UnreadKeys.id(name), value);
            }
            cursor = scan;
        } while (!cursor.isFinished());
        return new Counts(total, byAuthor);
    }

    /** Entries sharing the cursor's score may sit before it: ZCOUNT says how many more to fetch to skip them. */
    @Override
    public Page authorPage(long userId, long authorId, int limit, String cursor) {
        byte[] key = keys.unreadBytes(userId, authorId);
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        List<ScoredValue<byte[]>> candidates = after == null
                ? calls.reads().sync().zrevrangebyscoreWithScores(key, Range.unbounded(), Limit.create(0, limit + 1))
                : calls.reads().sync().zrevrangebyscoreWithScores(key,
                        Range.from(Range.Boundary.unbounded(), Range.Boundary.including(after.score())),
                        Limit.create(0, calls.reads().sync().zcount(key, Range.create(after.score(), after.score())) + limit + 1));
        List<Item> items = new ArrayList<>(limit);
        PageCursor last = null;
        for (ScoredValue<byte[]> entry : candidates) {
            long score = (long) entry.getScore();
            String blog = Entries.text(entry.getValue());
            if (after != null && !after.precedes(score, blog)) continue;
            if (items.size() == limit) return new Page(items, last.encode());
            items.add(new Item(Long.parseLong(blog), authorId, Math.floorDiv(score, 1000)));
            last = new PageCursor(score, blog);
        }
        return new Page(items, null);
    }

    /** merged_page.lua answers {member as hex, score, ...}; the cursor is the last entry's score and member. */
    @Override
    public Page mergedPage(long userId, int limit, String cursor) {
        byte[][] mergedKey = {keys.mergedBytes(userId)};
        byte[] fetch = UnreadKeys.decimal(limit + 1);
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        List<Object> rows = after == null ? calls.call(MERGED_PAGE, ScriptOutputType.MULTI, mergedKey, fetch)
                : calls.call(MERGED_PAGE, ScriptOutputType.MULTI, mergedKey, fetch, UnreadKeys.decimal(after.score()),
                        Entries.ascii(after.member()));
        List<Item> items = new ArrayList<>(limit);
        PageCursor last = null;
        for (int i = 0; i + 1 < rows.size(); i += 2) {
            String hex = Entries.text(rows.get(i));
            long score = (long) Double.parseDouble(Entries.text(rows.get(i + 1)));
            if (items.size() == limit) return new Page(items, last.encode());
            items.add(new Item(HexFormat.fromHexDigitsToLong(hex, 16, 32), HexFormat.fromHexDigitsToLong(hex, 0, 16),
                    Math.floorDiv(score, 1000)));
            last = new PageCursor(score, hex);
        }
        return new Page(items, null);
    }

    @Override
    public void close() {
        calls.close();
    }
}
