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
import io.readmark.store.unread.UnreadKeys;

import java.util.ArrayList;
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
 * and their scores, the count fields, {@code total} and {@code seen} (so the unseen count), the notice inbox and
 * {@code notices} (its unread), and the invariants (count
 * equals set size, total equals the sum, no zero or negative field). Users and authors are those the model expects plus those a SCAN of the run's
 * prefix finds, so a key nobody expected is found too. Reads are pipelined, one batch of users at a time.
 */
public final class UnreadStateCheck {

    private static final int USERS_PER_BATCH = 200;
    private static final int MAX_EXAMPLES = 10;
    private static final long TIMEOUT_SECONDS = 30;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final NoticeReader notices;
    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final String prefix;
    private final Pattern userKey;
    /** The one instant a comparison reads and expects notices at, so that none expires between the two. */
    private volatile long checkedAt;

    /** @param connection a connection with auto-flush (the shared one of {@code RedisConnections}) */
    public UnreadStateCheck(RedisConnections.Connection connection, String prefix) {
        this.redis = connection.async();
        this.keys = new UnreadKeys(prefix);
        // Read as the view API reads them, at the comparison's instant.
        this.notices = new NoticeReader(connection, keys, LiveNoticeSource.direct(new NoticeKeys(prefix)), () -> checkedAt);
        this.noticeKeys = new NoticeKeys(prefix);
        this.prefix = prefix;
        this.userKey = Pattern.compile(Pattern.quote(prefix + ":{u:") + "(\\d+)\\}:(counts|unread:(\\d+))");
    }

    public CheckResult compare(ExpectedUnread expected) {
        checkedAt = System.currentTimeMillis();
        Map<Long, Set<Long>> authorsByUser = new TreeMap<>();
        expected.unreadByUser().forEach((user, byAuthor) -> authorsByUser.put(user, new TreeSet<>(byAuthor.keySet())));
        expected.noticeRecipients().forEach(user -> authorsByUser.computeIfAbsent(user, u -> new TreeSet<>()));
        expected.audienceHashes().keySet().forEach(user -> authorsByUser.computeIfAbsent(user, u -> new TreeSet<>()));
        scanUserKeys(authorsByUser);
        Tally tally = new Tally();
        List<Long> users = List.copyOf(authorsByUser.keySet());
        for (int from = 0; from < users.size(); from += USERS_PER_BATCH) {
            List<Long> batch = users.subList(from, Math.min(users.size(), from + USERS_PER_BATCH));
            Map<Long, RedisFuture<Map<String, String>>> counts = new HashMap<>();
            Map<Long, RedisFuture<List<ScoredValue<String>>>> inboxes = new HashMap<>();
            Map<Long, CompletableFuture<BroadcastUnread>> broadcasts = new HashMap<>();
            Map<Long, Map<Long, RedisFuture<List<ScoredValue<String>>>>> sets = new HashMap<>();
            for (long user : batch) {
                counts.put(user, redis.hgetall(keys.counts(user)));
                inboxes.put(user, redis.zrangeWithScores(noticeKeys.inbox(user), 0, -1));
                broadcasts.put(user, notices.broadcastUnreadAsync(user).toCompletableFuture());
                Map<Long, RedisFuture<List<ScoredValue<String>>>> byAuthor = new TreeMap<>();
                for (long author : authorsByUser.get(user)) byAuthor.put(author, redis.zrangeWithScores(keys.unread(user, author), 0, -1));
                sets.put(user, byAuthor);
            }
            for (long user : batch) {
                Map<Long, Map<Long, Long>> actual = new TreeMap<>();
                sets.get(user).forEach((author, set) -> {
                    Map<Long, Long> blogs = new TreeMap<>();
                    for (ScoredValue<String> entry : get(set)) blogs.put(Long.parseLong(entry.getValue()), (long) entry.getScore());
                    if (!blogs.isEmpty()) actual.put(author, blogs);
                });
                Map<String, String> userCounts = get(counts.get(user));
                tally.user(user, expected.unreadOf(user), expected.seenOf(user), actual, userCounts);
                Map<Long, Long> inbox = new TreeMap<>();
                for (ScoredValue<String> entry : get(inboxes.get(user))) inbox.put(Long.parseLong(entry.getValue()), (long) entry.getScore());
                tally.notices(user, expected.inboxOf(user), expected.unreadNoticesOf(user), inbox, userCounts.get("notices"));
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

    /** Adds every user (and their authors) that has a counts hash or an unread set under the prefix. SCAN, never KEYS. */
    private void scanUserKeys(Map<Long, Set<Long>> authorsByUser) {
        ScanArgs match = ScanArgs.Builder.matches(prefix + ":{u:*").limit(1_000);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = get(redis.scan(cursor, match));
            for (String key : page.getKeys()) {
                Matcher matcher = userKey.matcher(key);
                if (!matcher.matches()) continue; // marks and floors: bookkeeping, not unread state
                Set<Long> authors = authorsByUser.computeIfAbsent(Long.parseLong(matcher.group(1)), user -> new TreeSet<>());
                if (matcher.group(3) != null) authors.add(Long.parseLong(matcher.group(3)));
            }
            cursor = page;
        } while (!cursor.isFinished());
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

        void user(long user, NavigableMap<Long, NavigableMap<Long, Long>> expected, long expectedSeen,
                  Map<Long, Map<Long, Long>> actual, Map<String, String> counts) {
            Set<Long> authors = new TreeSet<>(expected.keySet());
            authors.addAll(actual.keySet());
            long sum = 0;
            for (long author : authors) {
                Map<Long, Long> want = expected.getOrDefault(author, new TreeMap<>());
                Map<Long, Long> have = actual.getOrDefault(author, Map.of());
                found += have.size();
                want.forEach((blog, score) -> {
                    if (!score.equals(have.get(blog))) {
                        lost++;
                        example("user %d author %d: blog %d (publishedAt %d) missing%s", user, author, blog, score,
                                have.containsKey(blog) ? ", held with score " + have.get(blog) : "");
                    }
                });
                have.forEach((blog, score) -> {
                    if (!score.equals(want.get(blog))) {
                        extra++;
                        example("user %d author %d: blog %d (publishedAt %d) unread but not expected", user, author, blog, score);
                    }
                });
                long count = parse(counts.get(Long.toString(author)));
                if (count != have.size()) {
                    doubleCounted++;
                    example("user %d author %d: count %d but the set holds %d", user, author, count, have.size());
                }
                sum += count;
            }
            // A field of an author with no set behind it was not looked at above.
            for (Map.Entry<String, String> field : counts.entrySet()) {
                long value = parse(field.getValue());
                boolean known = field.getKey().equals("total") || field.getKey().equals("seen") || field.getKey().equals("notices")
                        || field.getKey().equals("v") || authors.contains(parse(field.getKey()));
                if (value <= 0 || !known) {
                    doubleCounted++;
                    example("user %d: counts field %s = %s (no set behind it, or not positive)", user, field.getKey(), field.getValue());
                }
            }
            long total = parse(counts.get("total"));
            if (total != sum) {
                doubleCounted++;
                example("user %d: total %d but the counts sum to %d", user, total, sum);
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

        /** A count or an author id; anything else reads as 0, which the checks above report. */
        private static long parse(String value) {
            return value == null || !value.matches("-?\\d{1,18}") ? 0 : Long.parseLong(value);
        }

        private void example(String format, Object... args) {
            if (examples.size() < MAX_EXAMPLES) examples.add(format.formatted(args));
        }
    }
}
