package io.readmark.reliability;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.readmark.store.notice.BroadcastUnread;
import io.readmark.store.notice.LiveNoticeSource;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.notice.NoticeReader;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.EntryRecord;
import io.readmark.store.unread.UnreadKeys;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares every user's unread state in Redis with an {@link ExpectedUnread}: per (user, author) the unread blogs
 * and their seconds as h's records hold them, {@code total} and {@code seen} (so the unseen count), the notice inbox
 * and {@code notices} (its unread), and the layout's invariants (counters.lua): each author's records whole, in order
 * and without a repeat; z's unread entries exactly the records' blogs at the same seconds; total their number; no
 * zero or negative count and no field that is neither an author nor a count. Users are those the model expects plus
 * those a SCAN of the run's prefix finds with a z or an h, so state nobody expected is found too; a key of the layout
 * before z and h is reported as extra. Reads are pipelined, one batch of users at a time.
 */
public final class UnreadStateCheck {

    private static final int USERS_PER_BATCH = 200;
    private static final int MAX_EXAMPLES = 10;
    private static final long TIMEOUT_SECONDS = 30;

    private static final Set<String> COUNT_FIELDS = Set.of("total", "seen", "notices", "v");

    private final RedisClusterAsyncCommands<String, String> redis;
    private final RedisClusterAsyncCommands<byte[], byte[]> binary;
    private final NoticeReader notices;
    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final String prefix;
    private final Pattern userKey;
    /** The one instant a comparison reads and expects notices at, so that none expires between the two. */
    private volatile long checkedAt;

    /**
     * @param connection a connection with auto-flush (the shared one of {@code RedisConnections})
     * @param binary     a byte-array connection to the same Redis, for h's records
     */
    public UnreadStateCheck(RedisConnections.Connection connection, RedisConnections.BinaryConnection binary, String prefix) {
        this.redis = connection.async();
        this.binary = binary.async();
        this.keys = new UnreadKeys(prefix);
        // Read as the view API reads them, at the comparison's instant.
        this.notices = new NoticeReader(connection, keys, LiveNoticeSource.direct(new NoticeKeys(prefix)), () -> checkedAt);
        this.noticeKeys = new NoticeKeys(prefix);
        this.prefix = prefix;
        this.userKey = Pattern.compile(Pattern.quote(prefix + ":{u:") + "(\\d+)\\}:(z|h|counts|marks|merged|unread:\\d+)");
    }

    public CheckResult compare(ExpectedUnread expected) {
        checkedAt = System.currentTimeMillis();
        Set<Long> userSet = new TreeSet<>(expected.unreadByUser().keySet());
        userSet.addAll(expected.noticeRecipients());
        userSet.addAll(expected.audienceHashes().keySet());
        Tally tally = new Tally();
        scanUserKeys(userSet, tally);
        List<Long> users = List.copyOf(userSet);
        for (int from = 0; from < users.size(); from += USERS_PER_BATCH) {
            List<Long> batch = users.subList(from, Math.min(users.size(), from + USERS_PER_BATCH));
            Map<Long, RedisFuture<Map<byte[], byte[]>>> hashes = new HashMap<>();
            Map<Long, RedisFuture<List<ScoredValue<String>>>> zs = new HashMap<>();
            Map<Long, RedisFuture<List<ScoredValue<String>>>> inboxes = new HashMap<>();
            Map<Long, CompletableFuture<BroadcastUnread>> broadcasts = new HashMap<>();
            for (long user : batch) {
                hashes.put(user, binary.hgetall(keys.hBytes(user)));
                zs.put(user, redis.zrangeWithScores(keys.z(user), 0, -1));
                inboxes.put(user, redis.zrangeWithScores(noticeKeys.inbox(user), 0, -1));
                broadcasts.put(user, notices.broadcastUnreadAsync(user).toCompletableFuture());
            }
            for (long user : batch) {
                Map<String, String> counts = new TreeMap<>();
                Map<Long, Map<Long, Long>> actual = tally.records(user, get(hashes.get(user)), counts);
                Map<Long, Long> zUnread = new TreeMap<>();
                for (ScoredValue<String> entry : get(zs.get(user))) {
                    if (entry.getScore() <= 0) zUnread.put(Long.parseLong(entry.getValue()), (long) -entry.getScore());
                }
                tally.user(user, seconds(expected.unreadOf(user)), expected.seenOf(user), actual, zUnread, counts);
                Map<Long, Long> inbox = new TreeMap<>();
                for (ScoredValue<String> entry : get(inboxes.get(user))) inbox.put(Long.parseLong(entry.getValue()), (long) entry.getScore());
                tally.notices(user, expected.inboxOf(user), expected.unreadNoticesOf(user), inbox, counts.get("notices"));
                tally.broadcasts(user, expected.unreadBroadcastsOf(user, checkedAt), get(broadcasts.get(user)).count());
            }
        }
        compareBroadcasts(expected, tally);
        return new CheckResult(users.size(), expected.entries() + expected.noticeEntries() + expected.broadcastEntries(),
                tally.found, tally.lost, tally.extra, tally.doubleCounted, tally.examples);
    }

    /**
     * Each audience's live notices, and each member's memberships, as the model has them. An expired notice may still
     * be held (the scripts drop them at the audience's next change) and counts for nothing, so it is not compared.
     */
    private void compareBroadcasts(ExpectedUnread expected, Tally tally) {
        expected.liveNotices(checkedAt).forEach((audience, notices) -> {
            Map<Long, Long> actual = new TreeMap<>();
            for (ScoredValue<String> entry : get(redis.zrangeWithScores(noticeKeys.audienceNotices(audience), 0, -1))) {
                long notice = Long.parseLong(entry.getValue());
                if (expected.liveAt(notice, checkedAt)) actual.put(notice, (long) entry.getScore());
            }
            tally.entries("audience " + audience + ": notice", notices, actual);
        });
        expected.audienceHashes().forEach((user, audiences) -> {
            Map<String, String> actual = new HashMap<>(get(redis.hgetall(noticeKeys.audiences(user))));
            actual.remove(NoticeKeys.READS_STAMP); // changes with every notice read: a stamp, not state to compare
            if (!actual.equals(audiences)) {
                tally.lost++;
                tally.example("user %d: audiences %s, expected %s", user, actual, audiences);
            }
        });
    }

    /**
     * Adds every user that has a z or an h under the prefix; a key of the layout before them (counts, marks, merged,
     * unread sets) is extra: nothing writes those any more. SCAN, never KEYS.
     */
    private void scanUserKeys(Set<Long> users, Tally tally) {
        ScanArgs match = ScanArgs.Builder.matches(prefix + ":{u:*").limit(1_000);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = get(redis.scan(cursor, match));
            for (String key : page.getKeys()) {
                Matcher matcher = userKey.matcher(key);
                if (!matcher.matches()) continue; // floors and the notice keys: bookkeeping, or compared on their own
                if (matcher.group(2).equals("z") || matcher.group(2).equals("h")) {
                    users.add(Long.parseLong(matcher.group(1)));
                } else {
                    tally.extra++;
                    tally.example("%s: a key of the previous layout", key);
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
    }

    /** The model's entries with the second each is stored at: author → blog → second. */
    private static Map<Long, Map<Long, Long>> seconds(NavigableMap<Long, NavigableMap<Long, Long>> unread) {
        Map<Long, Map<Long, Long>> seconds = new TreeMap<>();
        unread.forEach((author, blogs) -> {
            Map<Long, Long> of = new TreeMap<>();
            blogs.forEach((blog, publishedAt) -> of.put(blog, EntryRecord.second(publishedAt)));
            seconds.put(author, of);
        });
        return seconds;
    }

    private static <T> T get(Future<T> future) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the unread state from Redis", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading Redis", e);
        }
    }

    /** The running totals of one comparison. */
    private static final class Tally {
        long found;
        long lost;
        long extra;
        long doubleCounted;
        final List<String> examples = new ArrayList<>();

        /**
         * h decoded: author → blog → second, from each author field's records; the other fields as text into
         * {@code counts}. A field that is neither an author nor a count, an author's records not whole, out of order
         * or repeated, is double-counted.
         */
        Map<Long, Map<Long, Long>> records(long user, Map<byte[], byte[]> hash, Map<String, String> counts) {
            Map<Long, Map<Long, Long>> byAuthor = new TreeMap<>();
            hash.forEach((rawField, value) -> {
                String field = new String(rawField, StandardCharsets.UTF_8);
                if (COUNT_FIELDS.contains(field)) {
                    counts.put(field, new String(value, StandardCharsets.UTF_8));
                    return;
                }
                long author = UnreadKeys.id(field);
                if (author < 0 || value.length == 0 || value.length % EntryRecord.BYTES != 0) {
                    doubleCounted++;
                    example("user %d: h field %s of %d bytes is neither an author's records nor a count", user, field, value.length);
                    return;
                }
                Map<Long, Long> blogs = new TreeMap<>();
                ByteBuffer records = ByteBuffer.wrap(value);
                byte[] previous = null;
                for (int at = 0; at < value.length; at += EntryRecord.BYTES) {
                    byte[] record = Arrays.copyOfRange(value, at, at + EntryRecord.BYTES);
                    if (previous != null && Arrays.compareUnsigned(previous, record) >= 0) {
                        doubleCounted++;
                        example("user %d author %d: record %d out of order or repeated", user, author, at / EntryRecord.BYTES);
                    }
                    previous = record;
                    long second = EntryRecord.MAX_SECOND + 1 - Integer.toUnsignedLong(records.getInt(at));
                    blogs.put(records.getLong(at + 4), second);
                }
                byAuthor.put(author, blogs);
            });
            return byAuthor;
        }

        void user(long user, Map<Long, Map<Long, Long>> expected, long expectedSeen, Map<Long, Map<Long, Long>> actual,
                  Map<Long, Long> zUnread, Map<String, String> counts) {
            Set<Long> authors = new TreeSet<>(expected.keySet());
            authors.addAll(actual.keySet());
            Map<Long, Long> recorded = new TreeMap<>();
            for (long author : authors) {
                Map<Long, Long> want = expected.getOrDefault(author, Map.of());
                Map<Long, Long> have = actual.getOrDefault(author, Map.of());
                found += have.size();
                want.forEach((blog, second) -> {
                    if (!second.equals(have.get(blog))) {
                        lost++;
                        example("user %d author %d: blog %d (second %d) missing%s", user, author, blog, second,
                                have.containsKey(blog) ? ", held at second " + have.get(blog) : "");
                    }
                });
                have.forEach((blog, second) -> {
                    if (!second.equals(want.get(blog))) {
                        extra++;
                        example("user %d author %d: blog %d (second %d) unread but not expected", user, author, blog, second);
                    }
                    if (recorded.put(blog, second) != null) {
                        doubleCounted++;
                        example("user %d: blog %d recorded under two authors", user, blog);
                    }
                });
            }
            // z's unread entries and the records must be the same blogs at the same seconds: the merged page reads z.
            recorded.forEach((blog, second) -> {
                if (!second.equals(zUnread.get(blog))) {
                    doubleCounted++;
                    example("user %d: blog %d recorded at second %d, z has %s", user, blog, second, zUnread.get(blog));
                }
            });
            zUnread.forEach((blog, second) -> {
                if (!recorded.containsKey(blog)) {
                    doubleCounted++;
                    example("user %d: blog %d unread in z (second %d) with no record", user, blog, second);
                }
            });
            counts.forEach((field, value) -> {
                if (parse(value) <= 0) {
                    doubleCounted++;
                    example("user %d: h field %s = %s (not positive)", user, field, value);
                }
            });
            long total = parse(counts.get("total"));
            if (total != recorded.size()) {
                doubleCounted++;
                example("user %d: total %d but h records %d", user, total, recorded.size());
            }
            long seen = parse(counts.get("seen"));
            if (seen != expectedSeen) {
                doubleCounted++;
                example("user %d: seen %d (unseen %d) but %d unread are at or before the seen watermark", user, seen, total - seen, expectedSeen);
            }
        }

        /** The notice inbox entry by entry, and counts.notices against the unread among them. */
        void notices(long user, Map<Long, Long> expected, long expectedUnread, Map<Long, Long> actual, String count) {
            entries("user " + user + ": inbox notice", expected, actual);
            if (parse(count) != expectedUnread) {
                doubleCounted++;
                example("user %d: notices %s but %d targeted notices are unread", user, count, expectedUnread);
            }
        }

        /** The unread broadcasts the view API computes from the audiences' notices and the user's state. */
        void broadcasts(long user, long expected, long actual) {
            if (actual != expected) {
                doubleCounted++;
                example("user %d: %d unread broadcast notices, expected %d", user, actual, expected);
            }
        }

        /** Entries of one sorted set (id → score) against the expected ones. */
        void entries(String what, Map<Long, Long> expected, Map<Long, Long> actual) {
            found += actual.size();
            expected.forEach((id, score) -> {
                if (!score.equals(actual.get(id))) {
                    lost++;
                    example("%s %d (at %d) missing", what, id, score);
                }
            });
            actual.forEach((id, score) -> {
                if (!score.equals(expected.get(id))) {
                    extra++;
                    example("%s %d (at %d) there but not expected", what, id, score);
                }
            });
        }

        /** A count; anything else reads as 0, which the checks above report. */
        private static long parse(String value) {
            return value == null || !value.matches("-?\\d{1,18}") ? 0 : Long.parseLong(value);
        }

        private void example(String format, Object... args) {
            if (examples.size() < MAX_EXAMPLES) examples.add(format.formatted(args));
        }
    }
}
