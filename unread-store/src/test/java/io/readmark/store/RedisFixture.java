package io.readmark.store;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadItem;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadReader;
import io.readmark.store.unread.UnreadWriter;

import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.infra.TestInfrastructure;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A real Redis for one test class, with its own key prefix so tests never see each other's keys. */
public final class RedisFixture implements AutoCloseable {

    public final RedisConnections redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false);
    public final RedisClusterCommands<String, String> sync = redis.shared().sync();
    /** Byte keys and values, for the merged index, whose members are not text. */
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
     * Redis order of merged members: score, then member bytes, which for positive ids is (authorId, blogId).
     */
    static final Comparator<UnreadItem> MERGED_ORDER = Comparator.comparing(UnreadItem::publishedAt)
            .thenComparingLong(UnreadItem::authorId).thenComparingLong(UnreadItem::blogId);

    /** The merged index of a user in Redis order, each member decoded here (not by the code under test). */
    public List<UnreadItem> merged(UnreadKeys keys, long userId) {
        List<UnreadItem> items = new ArrayList<>();
        for (ScoredValue<byte[]> entry : binary.sync().zrangeWithScores(keys.mergedBytes(userId), 0, -1)) {
            assertThat(entry.getValue()).as("a merged member is 16 bytes").hasSize(16);
            ByteBuffer member = ByteBuffer.wrap(entry.getValue());
            long authorId = member.getLong();
            long blogId = member.getLong();
            items.add(new UnreadItem(blogId, authorId, Instant.ofEpochMilli((long) entry.getScore())));
        }
        return items;
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

        public List<UnreadItem> merged(long userId) {
            return RedisFixture.this.merged(keys, userId);
        }

        /** DESIGN invariants 1 and 2 for one user, and the merged index being the union of the sets, read straight from Redis. */
        public void assertInvariants(long userId, String context) {
            Map<String, String> counts = sync.hgetall(keys.counts(userId));
            Map<String, Long> cardinalities = new HashMap<>();
            List<UnreadItem> union = new ArrayList<>();
            String unreadPrefix = keys.unread(userId, 0).replaceAll("0$", "");
            String pattern = unreadPrefix.replace("{", "\\{").replace("}", "\\}") + "*";
            ScanIterator<String> scan = ScanIterator.scan(sync, ScanArgs.Builder.matches(pattern).limit(1000));
            while (scan.hasNext()) {
                String key = scan.next();
                String author = key.substring(unreadPrefix.length());
                cardinalities.put(author, sync.zcard(key));
                for (ScoredValue<String> entry : sync.zrangeWithScores(key, 0, -1)) {
                    union.add(new UnreadItem(Long.parseLong(entry.getValue()), Long.parseLong(author),
                            Instant.ofEpochMilli((long) entry.getScore())));
                }
            }
            union.sort(MERGED_ORDER);
            assertThat(merged(userId)).as("%s: the merged index is the union of the unread sets, in Redis order", context)
                    .containsExactlyElementsOf(union);
            long sum = 0;
            for (Map.Entry<String, Long> entry : cardinalities.entrySet()) {
                assertThat(entry.getValue()).as("%s: empty sets are deleted", context).isPositive();
                assertThat(counts.get(entry.getKey())).as("%s: counts[%s] == ZCARD", context, entry.getKey())
                        .isEqualTo(Long.toString(entry.getValue()));
                sum += entry.getValue();
            }
            Map<String, String> authorFields = new HashMap<>(counts);
            String total = authorFields.remove("total");
            String seen = authorFields.remove("seen");
            authorFields.remove("v"); // the state version: no invariant ties it to the sets
            assertNoticeCount(userId, authorFields.remove("notices"), context);
            String watermark = sync.hget(keys.floors(userId), "seen");
            long covered = watermark == null ? 0
                    : union.stream().filter(item -> item.publishedAt().toEpochMilli() <= Long.parseLong(watermark)).count();
            assertThat(seen == null ? 0 : Long.parseLong(seen)).as("%s: seen == unread at or before the seen watermark", context)
                    .isEqualTo(covered);
            if (seen != null) assertThat(Long.parseLong(seen)).as("%s: no zero or negative seen left behind", context).isPositive();
            assertThat(authorFields.keySet()).as("%s: no count field without unread entries", context).isEqualTo(cardinalities.keySet());
            assertThat(total == null ? 0 : Long.parseLong(total)).as("%s: total == sum of counts", context).isEqualTo(sum);
            if (total != null) assertThat(Long.parseLong(total)).as("%s: no zero or negative total left behind", context).isPositive();
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
