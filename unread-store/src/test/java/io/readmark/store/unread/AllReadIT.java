package io.readmark.store.unread;

import io.readmark.store.RedisFixture;
import io.readmark.store.notice.NoticeKeys;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
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
        writer = redis.writer(new UnreadLimits(5, 20));
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
        writer.deliver(user, ALICE, 2, T0 + 10);
        writer.deliver(user, BOB, 3, T0 + 5);
        writer.deliver(user, BOB, 4, T0 + 20);
        writer.deliver(user, BIG, 5, T0 + 10);
        writer.allRead(user, T0 + 10);
        writer.awaitAcknowledged();
        assertThat(redis.reader().counts(user).byAuthor()).containsExactly(Map.entry(BOB, 1L));
        assertThat(redis.sync.zrange(redis.keys.unread(user, BOB), 0, -1)).containsExactly("4");

        // a lagging delivery of an older blog of any author, a replay, and an older all-read arriving late
        writer.deliver(user, ALICE, 6, T0 + 9);
        writer.deliver(user, 11, 7, T0 + 10);
        writer.allRead(user, T0 + 10);
        writer.allRead(user, T0 + 1);
        writer.deliver(user, ALICE, 8, T0 + 8);
        // newer blogs still count
        writer.deliver(user, ALICE, 9, T0 + 11);
        writer.awaitAcknowledged();

        assertThat(redis.reader().counts(user).byAuthor()).containsExactlyInAnyOrderEntriesOf(Map.of(ALICE, 1L, BOB, 1L));
        assertThat(redis.sync.hgetall(redis.keys.floors(user))).as("one floor for the user, none per author")
                .isEqualTo(Map.of("all", Long.toString(T0 + 10)));
        redis.assertInvariants(user);
    }

    @Test
    void shouldEndEmptyForAUserWithNothingUnread() {
        long user = user();
        writer.allRead(user, T0);
        writer.awaitAcknowledged();
        assertThat(redis.sync.hkeys(redis.keys.counts(user))).as("only the state version is left").containsOnly("v");
        assertThat(redis.sync.hget(redis.keys.floors(user), "all")).isEqualTo(Long.toString(T0));
    }

    /**
     * Adversarial: thousands of authors with unread, so the counts hash is large (not the small encoding). Each script
     * call scans a bounded number of fields; the writer chains the steps and returns only once all are applied.
     */
    @Test
    void shouldClearThousandsOfAuthorsInBoundedStepsAndKeepWhatIsNewer() {
        long user = user();
        int authors = 3_000;
        for (long author = 1; author <= authors; author++) {
            writer.deliver(user, author, author * 10, T0 + author % 7);
            writer.deliver(user, author, author * 10 + 1, T0 + 100);
        }
        writer.awaitAcknowledged();
        assertThat(redis.reader().counts(user).total()).isEqualTo(2L * authors);

        List<Object> firstStep = redis.sync.eval(UnreadScript.ALL_READ.body(), ScriptOutputType.MULTI,
                new String[]{redis.keys.floors(user), redis.keys.counts(user), new NoticeKeys(redis.keys.prefix()).audiences(user),
                        redis.keys.live(user), redis.keys.changes(user)}, Long.toString(T0 + 50), "0", "100");
        assertThat(firstStep.size()).as("one step scans about COUNT fields, not the hash").isBetween(2, 400);

        writer.allRead(user, T0 + 50);
        writer.awaitAcknowledged();

        UnreadCounts counts = redis.reader().counts(user);
        assertThat(counts.total()).isEqualTo(authors);
        assertThat(counts.byAuthor()).allSatisfy((author, count) -> assertThat(count).isEqualTo(1L));
        assertThat(counts.byAuthor().size() + counts.authorsOmitted()).isEqualTo(authors);
        redis.assertInvariants(user);
    }

    @Test
    void shouldRedoWhatIsLeftWhenReplayed() {
        long user = user();
        for (long author = 1; author <= 300; author++) writer.deliver(user, author, author, T0);
        writer.awaitAcknowledged();
        // Only the first step applied (a crash before the removals), then the event is processed again.
        redis.sync.eval(UnreadScript.ALL_READ.body(), ScriptOutputType.MULTI,
                new String[]{redis.keys.floors(user), redis.keys.counts(user), new NoticeKeys(redis.keys.prefix()).audiences(user),
                        redis.keys.live(user), redis.keys.changes(user)}, Long.toString(T0), "0", "100");
        assertThat(redis.reader().counts(user).total()).isEqualTo(300);
        writer.allRead(user, T0);
        writer.awaitAcknowledged();
        assertThat(redis.sync.hkeys(redis.keys.counts(user))).as("only the state version is left").containsOnly("v");
        redis.assertInvariants(user);
    }
}
