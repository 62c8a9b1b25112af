package io.readmark.store.notice;

import io.readmark.store.RedisFixture;
import io.readmark.store.unread.BoundedHashRead;
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
 * Counts and memberships read with bounded Redis work however big the user's hash: a million authors, a million
 * audience fields. What Redis spent on each read is taken from INFO commandstats (the module's ITs run one at a
 * time): a bounded time, and no HGETALL of the user's hash; an ordinary user's counts are still one command.
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
    void shouldCountAMillionAuthorsExactlyWithBoundedRedisWork() throws Exception {
        // Given a user with a million authors, one unread each, five seen, and two targeted notices
        long user = 1;
        fill(redis.keys.counts(user), "", "1");
        redis.sync.hset(redis.keys.counts(user), Map.of("total", Integer.toString(FIELDS), "seen", "5", "notices", "2"));

        // When the counts are read, blocking and not
        Map<String, long[]> spent = redisWorkOf(() -> {
            assertBoundedAndExact(redis.reader().counts(user));
            assertBoundedAndExact(redis.reader().countsAsync(user).toCompletableFuture().join());
        });

        // Then Redis scanned a bounded part and never read the whole hash
        assertThat(spent).doesNotContainKey("hgetall");
        assertThat(spent.values().stream().mapToLong(command -> command[1]).sum()).as("µs in Redis").isLessThan(MAX_REDIS_MICROS);
    }

    private static void assertBoundedAndExact(UnreadCounts counts) {
        assertThat(counts.total()).isEqualTo(FIELDS);
        assertThat(counts.unseen()).isEqualTo(FIELDS - 5);
        assertThat(counts.targetedNotices()).isEqualTo(2);
        assertThat(counts.byAuthor().size()).isBetween(1, 3 * BoundedHashRead.FIELDS);
        assertThat(counts.byAuthor().values()).containsOnly(1L);
        assertThat(counts.authorsOmitted()).isEqualTo(FIELDS - counts.byAuthor().size());
    }

    @Test
    void shouldReadAnOrdinaryUsersCountsWholeInOneCommand() throws Exception {
        // Given a user with 300 authors (past a listpack's size, so a hash table)
        long user = 2;
        Map<String, String> hash = new HashMap<>();
        for (int author = 1; author <= 300; author++) hash.put(Integer.toString(author), Integer.toString(author));
        hash.put("total", Integer.toString(300 * 301 / 2));
        redis.sync.hset(redis.keys.counts(user), hash);

        // When the counts are read
        UnreadCounts[] read = new UnreadCounts[1];
        Map<String, long[]> spent = redisWorkOf(() -> read[0] = redis.reader().counts(user));

        // Then every author is listed, from one HSCAN and nothing else
        assertThat(read[0].byAuthor()).hasSize(300).containsEntry(300L, 300L);
        assertThat(read[0].authorsOmitted()).isZero();
        assertThat(read[0].total()).isEqualTo(300 * 301 / 2);
        assertThat(spent.keySet()).containsExactly("hscan");
        assertThat(spent.get("hscan")[0]).isEqualTo(1);
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
