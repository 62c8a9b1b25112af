package io.readmark.store.notice;

import io.readmark.store.RedisFixture;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counts and memberships read with bounded Redis work: a user at the per-user cap of unread, a million audience
 * fields. What Redis spent on each read is taken from INFO commandstats (the module's ITs run one at a time).
 */
class BoundedReadsIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final int FIELDS = 1_000_000;
    /** Far above a bounded read's few hundred microseconds, far below a read of a million fields. */
    private static final long MAX_REDIS_MICROS = 20_000;
    private static final Pattern CMDSTAT = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+),usec=(\\d+)");
    private static final String FILL = """
            for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do redis.call('HSET', KEYS[1], ARGV[3] .. i, ARGV[4]) end
            return 0""";
    @AutoClose
    private static final RedisFixture redis = new RedisFixture();
    private final NoticeKeys keys = new NoticeKeys(redis.keys.prefix());

    @Test
    void shouldCountAUserAtThePerUserCapExactlyInOneReadWithBoundedRedisWork() throws Exception {
        // Given a user at the per-user cap, one unread entry per author (the most author fields a writer leaves)
        long user = 1;
        int authors = UnreadLimits.DEFAULTS.maxUnreadPerUser();
        try (UnreadWriter writer = redis.writer(UnreadLimits.DEFAULTS)) {
            for (long author = 1; author <= authors; author++) writer.deliver(user, author, author, T0 + author * 1_000);
            writer.inboxSeen(user, T0 + 5_000);
            writer.awaitAcknowledged();
        }

        // When the counts are read, blocking and not
        Map<String, long[]> spent = redisWorkOf(() -> {
            assertExact(redis.reader().counts(user), authors);
            assertExact(redis.reader().countsAsync(user).toCompletableFuture().join(), authors);
        });

        // Then each read is one HGETALL, and Redis's work is bounded
        assertThat(spent.get("hgetall")[0]).isEqualTo(2);
        assertThat(spent.values().stream().mapToLong(command -> command[1]).sum()).as("µs in Redis").isLessThan(MAX_REDIS_MICROS);
    }

    private static void assertExact(UnreadCounts counts, int authors) {
        assertThat(counts.total()).isEqualTo(authors);
        assertThat(counts.unseen()).isEqualTo(authors - 5);
        assertThat(counts.byAuthor()).hasSize(authors);
        assertThat(counts.byAuthor().values()).containsOnly(1L);
        assertThat(counts.authorsOmitted()).isZero();
    }

    @Test
    void shouldCountTheNoticesOfAUserInAMillionAudiencesWithBoundedRedisWorkAndFreshMarks() throws Exception {
        // Given a user with a million audience fields and a notice floor past the first of everyone's three notices
        long user = 3;
        fill(keys.audiences(user), "gone-", "L" + T0);
        redis.sync.hset(keys.audiences(user), NoticeKeys.NOTICE_FLOOR, Long.toString(T0 + 1));
        KeepingHints hints = new KeepingHints();
        NoticeReader reader = new NoticeReader(redis.redis.shared(), redis.keys, LiveNoticeSource.direct(keys), hints, System::currentTimeMillis);
        try (UnreadWriter writer = redis.writer(UnreadLimits.DEFAULTS)) {
            for (long notice = 1; notice <= 3; notice++) writer.noticePublished(NoticeKeys.EVERYONE, notice, T0 + notice, 0);
            writer.awaitAcknowledged();

            // When the notices are counted, before and after a read of one of them
            Map<String, long[]> spent = redisWorkOf(() -> assertThat(unread(reader, user)).isEqualTo(2));
            writer.noticeRead(user, 3, T0 + 100);
            writer.awaitAcknowledged();

            // Then the floor counts, Redis's work is bounded (its HGETALLs are of audiences' expiry hashes, within the
            // notice cap), and the read after the mark counts it
            assertThat(spent.values().stream().mapToLong(command -> command[1]).sum()).as("µs in Redis").isLessThan(MAX_REDIS_MICROS);
            assertThat(unread(reader, user)).as("the mark's new stamp asks Redis again").isEqualTo(1);
            assertThat(redisWorkOf(() -> assertThat(unread(reader, user)).isEqualTo(1))).as("kept marks, stamp unchanged")
                    .doesNotContainKey("zmscore");
            assertThat(reader.audiences(user)).containsExactly(NoticeKeys.EVERYONE);
        }
    }

    private static long unread(NoticeReader reader, long user) throws Exception {
        return reader.broadcastUnreadAsync(user).toCompletableFuture().get(5, TimeUnit.SECONDS).count();
    }

    /** Fields {@code <fieldPrefix><i>} = {@code value} for i in 1..FIELDS, a hundred thousand per script. */
    private static void fill(String key, String fieldPrefix, String value) {
        for (int from = 1; from <= FIELDS; from += 100_000) {
            redis.sync.eval(FILL, ScriptOutputType.INTEGER, new String[]{key}, Integer.toString(from), Integer.toString(from + 99_999),
                    fieldPrefix, value);
        }
        assertThat(redis.sync.hlen(key)).isEqualTo(FIELDS);
    }

    /** The commands Redis ran during {@code read}, each with its calls and microseconds. */
    private static Map<String, long[]> redisWorkOf(ThrowingRunnable read) throws Exception {
        redis.sync.configResetstat();
        read.run();
        Map<String, long[]> spent = new HashMap<>();
        Matcher stat = CMDSTAT.matcher(redis.sync.info("commandstats"));
        while (stat.find()) {
            if (!stat.group(1).startsWith("info") && !stat.group(1).startsWith("config")) spent.put(stat.group(1), new long[]{Long.parseLong(stat.group(2)), Long.parseLong(stat.group(3))});
        }
        return spent;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
