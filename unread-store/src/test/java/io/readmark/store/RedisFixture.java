package io.readmark.store;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.EntryRecord;
import io.readmark.store.unread.UnreadItem;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadPage;
import io.readmark.store.unread.UnreadReader;
import io.readmark.store.unread.UnreadWriter;

import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.infra.TestInfrastructure;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A real Redis for one test class, with its own key prefix so tests never see each other's keys. */
public final class RedisFixture implements AutoCloseable {

    public final RedisConnections redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false);
    public final RedisClusterCommands<String, String> sync = redis.shared().sync();
    /** Byte keys and values, for h, whose records are not text. */
    public final RedisConnections.BinaryConnection binary = redis.openBinary();
    private final Scoped defaults = scoped("test-" + UUID.randomUUID());
    public final UnreadKeys keys = defaults.keys();

    /** Keys under their own prefix, for one sequence of a randomized test. */
    public Scoped scoped(String prefix) {
        return new Scoped(new UnreadKeys(prefix));
    }

    public UnreadWriter writer(UnreadLimits limits) {
        return defaults.writer(limits);
    }

    public UnreadReader reader() {
        return new UnreadReader(redis.shared(), keys);
    }

    public void assertInvariants(long userId) {
        defaults.assertInvariants(userId, "user " + userId);
    }

    /**
     * Every unread entry of a user as h's records hold them, each record decoded here (not by the code under test),
     * in the merged list's order.
     */
    public List<UnreadItem> entries(UnreadKeys keys, long userId) {
        List<UnreadItem> items = new ArrayList<>();
        binary.sync().hgetall(keys.hBytes(userId)).forEach((field, value) -> {
            long author = UnreadKeys.id(new String(field, StandardCharsets.US_ASCII));
            if (author < 0) return;
            assertThat(value.length % 12).as("records of author %d are 12 bytes each", author).isZero();
            ByteBuffer records = ByteBuffer.wrap(value);
            while (records.hasRemaining()) {
                long second = 4_294_967_295L - Integer.toUnsignedLong(records.getInt());
                items.add(new UnreadItem(records.getLong(), author, Instant.ofEpochSecond(second)));
            }
        });
        items.sort(UnreadItem.NEWEST_FIRST);
        return items;
    }

    /** The user's whole merged list, page by page, each page at most {@code limit}. */
    public static List<UnreadItem> mergedList(UnreadReader reader, long userId, int limit) {
        return allPages(cursor -> reader.mergedPage(userId, limit, cursor), limit);
    }

    /** The user's whole list of one author, page by page, each page at most {@code limit}. */
    public static List<UnreadItem> authorList(UnreadReader reader, long userId, long authorId, int limit) {
        return allPages(cursor -> reader.page(userId, authorId, limit, cursor), limit);
    }

    private static List<UnreadItem> allPages(java.util.function.Function<String, UnreadPage> page, int limit) {
        List<UnreadItem> all = new ArrayList<>();
        String cursor = null;
        do {
            UnreadPage next = page.apply(cursor);
            assertThat(next.items().size()).isLessThanOrEqualTo(limit);
            all.addAll(next.items());
            cursor = next.nextCursor();
        } while (cursor != null);
        return all;
    }

    @Override
    public void close() {
        binary.close();
        redis.close();
    }

    public final class Scoped {

        private final UnreadKeys keys;

        private Scoped(UnreadKeys keys) {
            this.keys = keys;
        }

        public UnreadKeys keys() {
            return keys;
        }

        public RedisClusterCommands<String, String> sync() {
            return sync;
        }

        public UnreadWriter writer(UnreadLimits limits) {
            return new UnreadWriter(redis.openBinary(), keys, limits, 1000);
        }

        public List<UnreadItem> entries(long userId) {
            return RedisFixture.this.entries(keys, userId);
        }

        /** h's fields as the counts read takes them: each author's records counted, the others as they are. */
        public Map<String, String> countsFields(long userId) {
            Map<String, String> fields = new TreeMap<>();
            binary.sync().hgetall(keys.hBytes(userId)).forEach((field, value) -> {
                String name = new String(field, StandardCharsets.US_ASCII);
                fields.put(name, UnreadKeys.id(name) > 0 ? Integer.toString(value.length / EntryRecord.BYTES) : new String(value, StandardCharsets.US_ASCII));
            });
            return fields;
        }

        /**
         * The layout's invariants for one user, read straight from Redis: each author's records newest first without
         * repeats; z's unread entries the same blogs at the same seconds; total their number, each author's count its
         * records', seen those the watermark covers, none of them zero; tombstones scored above every entry.
         */
        public void assertInvariants(long userId, String context) {
            Map<String, Long> counts = new HashMap<>();
            binary.sync().hgetall(keys.hBytes(userId)).forEach((field, value) -> {
                String name = new String(field, StandardCharsets.US_ASCII);
                if (UnreadKeys.id(name) > 0) {
                    assertThat(value.length).as("%s: no empty record list of author %s", context, name).isPositive();
                    for (int at = 12; at < value.length; at += 12) {
                        assertThat(Arrays.compareUnsigned(value, at - 12, at, value, at, at + 12))
                                .as("%s: records of author %s newest first, no repeats", context, name).isNegative();
                    }
                    counts.put(name, (long) value.length / 12);
                } else {
                    counts.put(name, Long.parseLong(new String(value, StandardCharsets.US_ASCII)));
                }
            });
            List<UnreadItem> entries = entries(userId);
            Map<Long, Long> inZ = new HashMap<>();
            for (ScoredValue<String> entry : sync.zrangebyscoreWithScores(keys.z(userId), Range.create(Double.NEGATIVE_INFINITY, 0.0))) {
                inZ.put(Long.parseLong(entry.getValue()), (long) -entry.getScore());
            }
            Map<Long, Long> inRecords = new HashMap<>();
            for (UnreadItem item : entries) {
                assertThat(inRecords.put(item.blogId(), item.publishedAt().getEpochSecond())).as("%s: blog %d once", context, item.blogId()).isNull();
            }
            assertThat(inZ).as("%s: z's unread entries are the records", context).isEqualTo(inRecords);
            Long total = counts.remove("total");
            Long seen = counts.remove("seen");
            counts.remove("v"); // the state version: no invariant ties it to the entries
            Long notices = counts.remove("notices");
            assertNoticeCount(userId, notices == null ? null : Long.toString(notices), context);
            assertThat(total == null ? 0 : total).as("%s: total == entries", context).isEqualTo(entries.size());
            if (total != null) assertThat(total).as("%s: no zero total left behind", context).isPositive();
            String watermark = sync.hget(keys.floors(userId), "seen");
            long covered = watermark == null ? 0
                    : entries.stream().filter(item -> item.publishedAt().getEpochSecond() <= Math.floorDiv(Long.parseLong(watermark), 1000)).count();
            assertThat(seen == null ? 0 : seen).as("%s: seen == unread at or before the seen watermark's second", context).isEqualTo(covered);
            if (seen != null) assertThat(seen).as("%s: no zero or negative seen left behind", context).isPositive();
            assertThat(counts.keySet()).as("%s: only author fields and counts in h", context).allMatch(field -> UnreadKeys.id(field) > 0);
        }

        /** counts.notices == inbox entries above both floors without a read mark, read straight from Redis. */
        private void assertNoticeCount(long userId, String notices, String context) {
            NoticeKeys noticeKeys = new NoticeKeys(keys.prefix());
            long floor = 0;
            for (String field : List.of("notices", "all")) {
                String value = sync.hget(keys.floors(userId), field);
                if (value != null) floor = Math.max(floor, Long.parseLong(value));
            }
            long unread = 0;
            for (ScoredValue<String> entry : sync.zrangeWithScores(noticeKeys.inbox(userId), 0, -1)) {
                if ((long) entry.getScore() > floor && sync.zscore(noticeKeys.noticeReads(userId), entry.getValue()) == null) unread++;
            }
            assertThat(notices == null ? 0 : Long.parseLong(notices)).as("%s: notices == unread inbox entries", context).isEqualTo(unread);
            if (notices != null) assertThat(Long.parseLong(notices)).as("%s: no zero or negative notices left behind", context).isPositive();
        }
    }
}
