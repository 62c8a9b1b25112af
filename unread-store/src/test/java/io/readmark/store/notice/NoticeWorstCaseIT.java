package io.readmark.store.notice;

import io.readmark.store.RedisFixture;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The most a user's notices can cost one read: more audiences than are considered, every one at its cap of live
 * notices, everyone's too. The answer must count only the latest joined audiences, and each read stays far inside
 * the view API's one-second Redis timeout whatever the user's memberships hold.
 */
class NoticeWorstCaseIT {

    private static final int AUDIENCES = 1_000;
    private static final int PER_AUDIENCE = NoticeLimits.DEFAULTS.maxNoticesPerAudience();
    private static final long T0 = 1_767_225_600_000L;
    @AutoClose
    private static final RedisFixture redis = new RedisFixture();

    @Test
    void shouldCountOnlyTheLatestJoinedAudiencesInBoundedTimeWhenAUserIsInAThousand() throws Exception {
        // Given a user in 1,000 audiences, joined one after the other, and every audience (everyone's too) at its cap
        long user = 77;
        NoticeKeys keys = new NoticeKeys(redis.keys.prefix());
        long notice = 1;
        List<String> audiences = new ArrayList<>();
        for (int a = 0; a < AUDIENCES; a++) audiences.add("worst-" + a);
        audiences.add(NoticeKeys.EVERYONE);
        try (UnreadWriter writer = redis.writer(UnreadLimits.DEFAULTS)) {
            for (int a = 0; a < AUDIENCES; a++) writer.audienceJoined(user, audiences.get(a), T0 + a);
            for (String audience : audiences) {
                for (int i = 0; i < PER_AUDIENCE; i++) writer.noticePublished(audience, notice++, T0 + 10_000 + i, 0);
            }
            writer.awaitAcknowledged();
        }
        assertThat(redis.sync.zcard(keys.audienceNotices("worst-0"))).isEqualTo(PER_AUDIENCE);

        // When the counts are read, first without a guess of the user's audiences, then with the guess learnt
        RecordingHints hints = new RecordingHints();
        NoticeReader reader = new NoticeReader(redis.redis.shared(), redis.keys, LiveNoticeSource.direct(keys), hints, System::currentTimeMillis);
        long unguessed = timed(() -> reader.broadcastUnreadAsync(user).toCompletableFuture().get(5, TimeUnit.SECONDS).count());
        long started = System.nanoTime();
        long guessed = reader.broadcastUnreadAsync(user).toCompletableFuture().get(5, TimeUnit.SECONDS).count();
        long guessedMillis = (System.nanoTime() - started) / 1_000_000;

        // Then everyone's notices and those of the 64 audiences joined last count, and no read comes near the timeout
        long expected = (long) (Memberships.MAX_AUDIENCES + 1) * PER_AUDIENCE;
        assertThat(unguessed).isEqualTo(expected);
        assertThat(guessed).isEqualTo(expected);
        assertThat(hints.remembered).hasSize(Memberships.MAX_AUDIENCES).contains("worst-999").doesNotContain("worst-935");
        assertThat(guessedMillis).as("one read of the worst case, ms").isLessThan(500);
    }

    private static long timed(ThrowingSupplier read) throws Exception {
        long started = System.nanoTime();
        long value = read.get();
        assertThat((System.nanoTime() - started) / 1_000_000).as("one read of the worst case, ms").isLessThan(500);
        return value;
    }

    private interface ThrowingSupplier {
        long get() throws Exception;
    }

    private static final class RecordingHints implements MembershipHints {
        private java.util.Set<String> remembered = java.util.Set.of();

        @Override
        public java.util.Set<String> audiences(long userId) {
            return remembered;
        }

        @Override
        public KnownReads reads(long userId) {
            return null; // the worst case: every read asks Redis for the marks
        }

        @Override
        public void remember(long userId, java.util.Set<String> audiences, KnownReads reads) {
            remembered = java.util.Set.copyOf(audiences);
        }
    }
}
