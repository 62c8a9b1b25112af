package io.readmark.store.unread;

import io.readmark.store.RedisFixture;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seen watermark against a real Redis: unseen is the unread published after it, kept exact by every script that
 * adds or removes an entry (checked by {@link RedisFixture.Scoped#assertInvariants} after each step).
 */
class InboxSeenIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final long ALICE = 7;
    private static final long BOB = 9;

    @AutoClose
    private static final RedisFixture redis = new RedisFixture();
    private UnreadWriter writer;

    @BeforeEach
    void openWriter() {
        writer = redis.writer(new UnreadLimits(3, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 20));
    }

    @AfterEach
    void closeWriter() {
        writer.close();
    }

    private long user() {
        return 101 + System.nanoTime() % 1_000_000_000L;
    }

    private void assertCounts(long user, long total, long unseen) {
        writer.awaitAcknowledged();
        UnreadCounts counts = redis.reader().counts(user);
        assertThat(counts.total()).as("total").isEqualTo(total);
        assertThat(counts.unseen()).as("unseen").isEqualTo(unseen);
        redis.assertInvariants(user);
    }

    @Test
    void shouldCountEveryUnreadAsUnseenUntilTheInboxIsSeen() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, BOB, 2, T0 + 10_000);
        assertCounts(user, 2, 2);
        assertThat(redis.sync.hkeys(redis.keys.h(user))).doesNotContain("seen");
    }

    @Test
    void shouldCountOnlyWhatIsPublishedAfterTheWatermarkAsUnseen() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 10_000);
        writer.deliver(user, BOB, 3, T0 + 20_000);
        writer.inboxSeen(user, T0 + 10_000);
        assertCounts(user, 3, 1);

        // a replay and an older InboxSeen change nothing
        writer.inboxSeen(user, T0 + 10_000);
        writer.inboxSeen(user, T0);
        assertCounts(user, 3, 1);

        // a late delivery of a post published before seenAt counts as seen; a newer one as unseen
        writer.deliver(user, BOB, 4, T0 + 5_000);
        assertCounts(user, 4, 1);
        writer.deliver(user, BOB, 5, T0 + 30_000);
        assertCounts(user, 5, 2);

        // the watermark moves on
        writer.inboxSeen(user, T0 + 40_000);
        assertCounts(user, 5, 0);
        assertThat(redis.sync.hget(redis.keys.floors(user), "seen")).isEqualTo(Long.toString(T0 + 40_000));
    }

    @Test
    void shouldKeepUnseenExactThroughEveryRemoval() {
        long user = user();
        for (long blog = 1; blog <= 3; blog++) {
            writer.deliver(user, ALICE, blog, T0 + blog * 10_000);
            writer.deliver(user, BOB, 10 + blog, T0 + blog * 10_000);
        }
        writer.inboxSeen(user, T0 + 20_000);
        assertCounts(user, 6, 2);

        writer.remove(user, ALICE, 1, T0 + 100_000);      // seen
        assertCounts(user, 5, 2);
        writer.remove(user, ALICE, 3, T0 + 100_000);      // unseen
        assertCounts(user, 4, 1);
        writer.remove(user, ALICE, 3, T0 + 100_000);      // a replay
        assertCounts(user, 4, 1);
        writer.readAll(user, BOB, T0 + 10_000);           // one seen
        assertCounts(user, 3, 1);
        writer.unfollow(user, BOB, T0 + 100_000);         // one seen, one unseen
        assertCounts(user, 1, 0);
        writer.deliver(user, ALICE, 4, T0 + 50_000);
        writer.allRead(user, T0 + 20_000);                // the last seen one
        assertCounts(user, 1, 1);
        writer.allRead(user, T0 + 60_000);
        assertCounts(user, 0, 0);
        assertThat(redis.sync.hkeys(redis.keys.h(user))).as("no zero field left behind, only the state version").containsOnly("v");
    }

    @Test
    void shouldKeepUnseenExactWhenTheCapTrims() {
        long user = user();
        writer.inboxSeen(user, T0 + 2_000);
        for (long blog = 1; blog <= 3; blog++) writer.deliver(user, ALICE, blog, T0 + blog * 1_000);
        assertCounts(user, 3, 1);
        writer.deliver(user, ALICE, 4, T0 + 4_000);       // trims blog 1, seen
        assertCounts(user, 3, 2);
        writer.deliver(user, ALICE, 5, T0 + 5_000);       // trims blog 2, seen
        assertCounts(user, 3, 3);
    }
}
