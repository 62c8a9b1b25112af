package io.readmark.store.unread;

import io.readmark.store.RedisFixture;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The all-read scripts against a real Redis: every author's unread up to a moment, in bounded steps. */
class AllReadIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final long ALICE = 7;
    private static final long BOB = 9;
    private static final long BIG = Long.MAX_VALUE;

    @AutoClose
    private static final RedisFixture redis = new RedisFixture();
    private UnreadWriter writer;

    @BeforeEach
    void openWriter() {
        writer = redis.writer(new UnreadLimits(5, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 20));
    }

    @AfterEach
    void closeWriter() {
        writer.close();
    }

    private long user() {
        return 101 + System.nanoTime() % 1_000_000_000L;
    }

    @Test
    void shouldRemoveEveryAuthorsUnreadUpToReadAtAndKeepLateDeliveriesOfOlderBlogsOut() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 10_000);
        writer.deliver(user, BOB, 3, T0 + 5_000);
        writer.deliver(user, BOB, 4, T0 + 20_000);
        writer.deliver(user, BIG, 5, T0 + 10_000);
        writer.allRead(user, T0 + 10_000);
        writer.awaitAcknowledged();
        assertThat(redis.reader().counts(user).byAuthor()).containsExactly(Map.entry(BOB, 1L));
        assertThat(redis.reader().page(user, BOB, 10, null).items()).extracting(UnreadItem::blogId).containsExactly(4L);

        // a lagging delivery of an older blog of any author, a replay, and an older all-read arriving late
        writer.deliver(user, ALICE, 6, T0 + 9_000);
        writer.deliver(user, 11, 7, T0 + 10_000);
        writer.allRead(user, T0 + 10_000);
        writer.allRead(user, T0 + 1_000);
        // the floor covers its whole second: a post later in that second is read too
        writer.deliver(user, BOB, 10, T0 + 10_999);
        writer.deliver(user, ALICE, 8, T0 + 8_000);
        // newer blogs still count
        writer.deliver(user, ALICE, 9, T0 + 11_000);
        writer.awaitAcknowledged();

        assertThat(redis.reader().counts(user).byAuthor()).containsExactlyInAnyOrderEntriesOf(Map.of(ALICE, 1L, BOB, 1L));
        assertThat(redis.sync.hgetall(redis.keys.floors(user))).as("one floor for the user, none per author")
                .isEqualTo(Map.of("all", Long.toString(T0 + 10_000)));
        redis.assertInvariants(user);
    }

    @Test
    void shouldEndEmptyForAUserWithNothingUnread() {
        long user = user();
        writer.allRead(user, T0);
        writer.awaitAcknowledged();
        assertThat(redis.sync.hkeys(redis.keys.h(user))).as("only the state version is left").containsOnly("v");
        assertThat(redis.sync.hget(redis.keys.floors(user), "all")).isEqualTo(Long.toString(T0));
    }

    /**
     * Adversarial: a user at the per-user cap, one entry per author for most of it, so h is large. The all-read is one
     * script, bounded by the cap, and keeps what is newer.
     */
    @Test
    void shouldClearAUserAtThePerUserCapInOneScriptAndKeepWhatIsNewer() {
        long user = user();
        int authors = UnreadLimits.DEFAULTS.maxUnreadPerUser() / 2;
        for (long author = 1; author <= authors; author++) {
            writer.deliver(user, author, author * 10, T0 + (author % 7) * 1_000);
            writer.deliver(user, author, author * 10 + 1, T0 + 100_000);
        }
        writer.awaitAcknowledged();
        assertThat(redis.reader().counts(user).total()).isEqualTo(2L * authors);

        writer.allRead(user, T0 + 50_000);
        writer.awaitAcknowledged();

        UnreadCounts counts = redis.reader().counts(user);
        assertThat(counts.total()).isEqualTo(authors);
        assertThat(counts.byAuthor()).hasSize(authors).allSatisfy((author, count) -> assertThat(count).isEqualTo(1L));
        redis.assertInvariants(user);
    }

    @Test
    void shouldChangeNothingWhenReplayed() {
        long user = user();
        for (long author = 1; author <= 300; author++) writer.deliver(user, author, author, T0 + (author % 2) * 2_000);
        writer.allRead(user, T0 + 1_000);
        writer.awaitAcknowledged();
        String version = redis.sync.hget(redis.keys.h(user), "v");
        assertThat(redis.reader().counts(user).total()).isEqualTo(150);

        writer.allRead(user, T0 + 1_000);
        writer.awaitAcknowledged();

        assertThat(redis.sync.hget(redis.keys.h(user), "v")).as("no change, no new version").isEqualTo(version);
        assertThat(redis.reader().counts(user).total()).isEqualTo(150);
        redis.assertInvariants(user);
    }
}
