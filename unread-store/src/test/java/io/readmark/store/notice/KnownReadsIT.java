package io.readmark.store.notice;

import io.readmark.store.RedisFixture;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A counts read with read marks it kept ({@link KnownReads}): it asks Redis for no marks while the user's reads stamp
 * is the one it kept them with, and asks again, and counts right, after every change of the marks: a read, a read of
 * a notice not published yet, and the oldest mark trimmed at the cap.
 */
class KnownReadsIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final long USER = 41;
    private static final Pattern ZMSCORE_CALLS = Pattern.compile("cmdstat_zmscore:calls=(\\d+)");
    @AutoClose
    private static final RedisFixture redis = new RedisFixture();

    @Test
    void shouldAskForTheMarksOnlyWhenTheyChanged() throws Exception {
        // Given a user in an audience of three live notices, and a reader that keeps what it learns
        NoticeKeys keys = new NoticeKeys(redis.keys.prefix());
        UnreadLimits twoMarks = new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000, new NoticeLimits(100, 1000, 2, 1000));
        KeepingHints hints = new KeepingHints();
        NoticeReader reader = new NoticeReader(redis.redis.shared(), redis.keys, LiveNoticeSource.direct(keys), hints, System::currentTimeMillis);
        try (UnreadWriter writer = redis.writer(twoMarks)) {
            writer.audienceJoined(USER, "staff", T0);
            for (long notice = 1; notice <= 3; notice++) writer.noticePublished("staff", notice, T0 + notice, 0);
            writer.awaitAcknowledged();

            // When it reads twice: the first read learns the marks, the second needs none from Redis
            assertThat(unread(reader)).isEqualTo(3);
            assertThat(zmscoreCallsDuring(() -> assertThat(unread(reader)).isEqualTo(3))).isZero();

            // Then a read of a notice changes the stamp: the next read asks, and counts it
            writer.noticeRead(USER, 2, T0 + 100);
            writer.awaitAcknowledged();
            assertThat(zmscoreCallsDuring(() -> assertThat(unread(reader)).isEqualTo(2))).isEqualTo(1);
            assertThat(zmscoreCallsDuring(() -> assertThat(unread(reader)).isEqualTo(2))).isZero();

            // And a read of a notice not published yet changes it too, then counts once the notice comes
            writer.noticeRead(USER, 4, T0 + 200);
            writer.awaitAcknowledged();
            assertThat(unread(reader)).isEqualTo(2);
            writer.noticePublished("staff", 4, T0 + 4, 0);
            writer.awaitAcknowledged();
            assertThat(unread(reader)).as("notice 4 was read before it came").isEqualTo(2);

            // And a third mark trims the oldest (notice 2's): the notice is unread again, and counted so
            writer.noticeRead(USER, 1, T0 + 300);
            writer.awaitAcknowledged();
            assertThat(redis.sync.zrange(keys.noticeReads(USER), 0, -1)).containsExactly("4", "1");
            assertThat(unread(reader)).as("notices 2 and 3").isEqualTo(2);
            assertThat(zmscoreCallsDuring(() -> assertThat(unread(reader)).isEqualTo(2))).isZero();
        }
    }

    private static long unread(NoticeReader reader) throws Exception {
        return reader.broadcastUnreadAsync(USER).toCompletableFuture().get(5, TimeUnit.SECONDS).count();
    }

    private static long zmscoreCallsDuring(ThrowingRunnable read) throws Exception {
        redis.sync.configResetstat();
        read.run();
        Matcher calls = ZMSCORE_CALLS.matcher(redis.sync.info("commandstats"));
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
