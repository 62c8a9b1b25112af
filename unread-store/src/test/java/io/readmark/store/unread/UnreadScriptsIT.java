package io.readmark.store.unread;

import io.readmark.store.RedisFixture;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.ScriptOutputType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Every script against a real Redis: the effect, the DESIGN invariants after it, and that a replay changes nothing. */
class UnreadScriptsIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final long ALICE = 7;
    private static final long BOB = 9;
    private static final long READER = 101;
    /** An author whose id is past 2^53, where a Lua number would lose digits, and at the top of a byte. */
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
        return READER + System.nanoTime() % 1_000_000_000L;
    }

    private Map<Long, Long> byAuthor(long userId) {
        return redis.reader().counts(userId).byAuthor();
    }

    private long total(long userId) {
        return redis.reader().counts(userId).total();
    }

    private void apply() {
        writer.awaitAcknowledged();
    }

    @Test
    void shouldCountADeliveryOnceHoweverOftenItIsReplayed() {
        long user = user();
        writer.deliver(user, ALICE, 1001, T0);
        writer.deliver(user, ALICE, 1001, T0);
        writer.deliver(user, BOB, 2001, T0 + 1);
        apply();
        writer.deliver(user, ALICE, 1001, T0);
        apply();

        assertThat(byAuthor(user)).containsExactlyInAnyOrderEntriesOf(Map.of(ALICE, 1L, BOB, 1L));
        assertThat(total(user)).isEqualTo(2);
        redis.assertInvariants(user);
    }

    @Test
    void shouldDecrementOnlyWhenTheReadBlogWasUnread() {
        long user = user();
        writer.deliver(user, ALICE, 1001, T0);
        writer.deliver(user, ALICE, 1002, T0 + 1);
        writer.remove(user, ALICE, 1001, T0 + 5);
        writer.remove(user, ALICE, 1001, T0 + 5);
        writer.remove(user, ALICE, 9999, T0 + 5);
        apply();

        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 1L));
        assertThat(total(user)).isEqualTo(1);
        redis.assertInvariants(user);
    }

    @Test
    void shouldKeepABlogReadWhenItsDeliveryArrivesAfterTheRead() {
        long user = user();
        writer.remove(user, ALICE, 1001, T0 + 5);
        writer.deliver(user, ALICE, 1001, T0);
        apply();

        assertThat(total(user)).isZero();
        assertThat(redis.sync.exists(redis.keys.counts(user))).isZero();
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveEverythingUpToReadAtAndKeepLaterDeliveriesOfOlderBlogsOut() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 10);
        writer.deliver(user, ALICE, 3, T0 + 20);
        writer.deliver(user, BOB, 4, T0 + 5);
        writer.readAll(user, ALICE, T0 + 10);
        apply();
        assertThat(byAuthor(user)).containsExactlyInAnyOrderEntriesOf(Map.of(ALICE, 1L, BOB, 1L));

        // a lagging delivery of an older blog, and a replay of the read-all
        writer.deliver(user, ALICE, 5, T0 + 7);
        writer.readAll(user, ALICE, T0 + 10);
        // an older read-all arriving late does not move the floor back
        writer.readAll(user, ALICE, T0 + 1);
        writer.deliver(user, ALICE, 6, T0 + 8);
        // newer blogs still count
        writer.deliver(user, ALICE, 7, T0 + 30);
        apply();

        assertThat(byAuthor(user)).containsExactlyInAnyOrderEntriesOf(Map.of(ALICE, 2L, BOB, 1L));
        assertThat(total(user)).isEqualTo(3);
        redis.assertInvariants(user);
    }

    @Test
    void shouldDropTheAuthorsUnreadOnUnfollowAndStayDroppedOnReplay() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 1);
        writer.deliver(user, BOB, 3, T0 + 2);
        writer.unfollow(user, ALICE, T0 + 10);
        writer.unfollow(user, ALICE, T0 + 10);
        writer.deliver(user, ALICE, 4, T0 + 9);   // a big-V chunk still in flight from before the unfollow
        apply();

        assertThat(byAuthor(user)).containsExactly(Map.entry(BOB, 1L));
        assertThat(total(user)).isEqualTo(1);
        assertThat(redis.sync.exists(redis.keys.unread(user, ALICE))).isZero();
        redis.assertInvariants(user);
    }

    /**
     * A big-V chunk made before the unfollow was processed can carry a post published after the unfollow (the post
     * was processed first): it stays out, as the user did not follow the author when it was published.
     */
    @Test
    void shouldRefuseDeliveriesAfterAnUnfollowWhateverTheirPostsTime() {
        long user = user();
        writer.unfollow(user, ALICE, T0 + 10);
        writer.deliver(user, ALICE, 1, T0 + 12);
        writer.deliver(user, BOB, 2, T0 + 12);
        apply();

        assertThat(byAuthor(user)).containsExactly(Map.entry(BOB, 1L));
        redis.assertInvariants(user);
    }

    @Test
    void shouldAcceptOnlyPostsAfterAReFollowAndIgnoreReplaysOfOlderFollowsAndUnfollows() {
        long user = user();
        writer.follow(user, ALICE, T0);          // a first follow writes nothing
        writer.deliver(user, ALICE, 1, T0 + 5);
        writer.unfollow(user, ALICE, T0 + 10);
        writer.follow(user, ALICE, T0 + 20);
        writer.deliver(user, ALICE, 2, T0 + 15); // published while the user did not follow
        writer.deliver(user, ALICE, 3, T0 + 25);
        writer.follow(user, ALICE, T0);          // replays from before the re-follow
        writer.unfollow(user, ALICE, T0 + 10);
        writer.deliver(user, ALICE, 4, T0 + 30);
        apply();

        assertThat(redis.sync.zrange(redis.keys.unread(user, ALICE), 0, -1)).containsExactly("3", "4");
        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 2L));
        redis.assertInvariants(user);
    }

    /**
     * Two follows after an unfollow, the later one recorded first: the earlier one moves the re-follow back, so posts
     * between the two are accepted; a follow from before the unfollow does not.
     */
    @Test
    void shouldMoveAReFollowBackToAnEarlierFollowAfterTheSameUnfollow() {
        long user = user();
        writer.unfollow(user, ALICE, T0 + 10);
        writer.follow(user, ALICE, T0 + 30, T0 + 10);
        writer.follow(user, ALICE, T0 + 5, T0 + 10);   // stale: before the unfollow
        writer.deliver(user, ALICE, 1, T0 + 15);
        writer.follow(user, ALICE, T0 + 20, T0 + 10);
        writer.follow(user, ALICE, T0 + 12);            // no unfollow known: does not move it
        writer.deliver(user, ALICE, 2, T0 + 15);         // published before the earliest re-follow after it
        writer.deliver(user, ALICE, 3, T0 + 22);
        writer.deliver(user, ALICE, 4, T0 + 35);
        apply();

        assertThat(redis.sync.zrange(redis.keys.unread(user, ALICE), 0, -1)).containsExactly("3", "4");
        redis.assertInvariants(user);
    }

    /**
     * A rebuild replays a pair's history beside the live state: a re-follow replayed with the unfollow before it does
     * not move the live re-follow back over a later unfollow Redis knows, so the live unread and new deliveries stay.
     */
    @Test
    void shouldNotMoveAReFollowBackOverALaterUnfollowWhenReplayed() {
        long user = user();
        writer.unfollow(user, ALICE, T0 + 200);
        writer.unfollow(user, ALICE, T0 + 400);
        writer.follow(user, ALICE, T0 + 500, T0 + 400);
        writer.deliver(user, ALICE, 1, T0 + 550);
        writer.follow(user, ALICE, T0 + 300, T0 + 200);    // replayed by a rebuild
        writer.unfollowBefore(user, ALICE, T0 + 200, T0 + 300);
        writer.deliver(user, ALICE, 2, T0 + 600);
        apply();

        assertThat(redis.sync.hget(redis.keys.floors(user), "m" + ALICE)).isEqualTo("F" + (T0 + 500));
        assertThat(redis.sync.zrange(redis.keys.unread(user, ALICE), 0, -1)).containsExactly("1", "2");
        redis.assertInvariants(user);
    }

    /**
     * An unfollow whose re-follow was processed first: what was delivered meanwhile and published after the re-follow
     * stays, as it would had the two come in their order before those deliveries; replays and older changes are ignored.
     */
    @Test
    void shouldKeepWhatCameAfterTheReFollowWhenTheUnfollowComesAfterIt() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0 + 5);
        writer.deliver(user, ALICE, 2, T0 + 15);  // published while the user did not follow
        writer.deliver(user, ALICE, 3, T0 + 25);
        writer.inboxSeen(user, T0 + 30);
        writer.unfollowBefore(user, ALICE, T0 + 10, T0 + 20);
        writer.unfollowBefore(user, ALICE, T0 + 10, T0 + 20);
        writer.unfollow(user, ALICE, T0 + 10);
        writer.follow(user, ALICE, T0 + 20);
        writer.deliver(user, ALICE, 4, T0 + 18); // a big-V chunk from before
        writer.deliver(user, ALICE, 5, T0 + 35);
        apply();

        assertThat(redis.sync.zrange(redis.keys.unread(user, ALICE), 0, -1)).containsExactly("3", "5");
        assertThat(redis.sync.hget(redis.keys.floors(user), "m" + ALICE)).isEqualTo("F" + (T0 + 20));
        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 2L));
        redis.assertInvariants(user);

        writer.unfollow(user, ALICE, T0 + 40);
        writer.unfollowBefore(user, ALICE, T0 + 30, T0 + 38); // older than the unfollow Redis has: nothing
        apply();
        assertThat(total(user)).isZero();
        redis.assertInvariants(user);
    }

    @Test
    void shouldKeepOnlyTheNewestUnreadPerAuthorWithCountsEqualToWhatIsKept() {
        long user = user();
        for (int i = 1; i <= 8; i++) writer.deliver(user, ALICE, i, T0 + i);
        apply();
        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 5L));
        assertThat(redis.sync.zrange(redis.keys.unread(user, ALICE), 0, -1)).containsExactly("4", "5", "6", "7", "8");

        // a replayed delivery of a trimmed blog does not come back, even after reads made room
        writer.remove(user, ALICE, 8, T0 + 100);
        writer.deliver(user, ALICE, 2, T0 + 2);
        apply();
        assertThat(redis.sync.zrange(redis.keys.unread(user, ALICE), 0, -1)).containsExactly("4", "5", "6", "7");
        redis.assertInvariants(user);
    }

    /**
     * Outside the invariants, a count edited below its set: the trim starts once the count passes the cap and then goes
     * by the set's own size, so the set holds at most the cap plus the drift. Reconcile repairs the count.
     */
    @Test
    void shouldHoldASetWhoseCountDriftedBelowItToTheCapPlusTheDrift() {
        long user = user();
        for (int i = 1; i <= 5; i++) writer.deliver(user, ALICE, i, T0 + i);
        apply();
        redis.sync.hset(redis.keys.counts(user), Long.toString(ALICE), "3");

        writer.deliver(user, ALICE, 6, T0 + 6);
        writer.deliver(user, ALICE, 7, T0 + 7);
        apply();
        assertThat(redis.sync.zcard(redis.keys.unread(user, ALICE))).as("the cap of 5 and the drift of 2").isEqualTo(7);

        writer.deliver(user, ALICE, 8, T0 + 8);
        apply();
        assertThat(redis.sync.zrange(redis.keys.unread(user, ALICE), 0, -1)).containsExactly("4", "5", "6", "7", "8");
        assertThat(byAuthor(user)).as("still 2 below its set").containsExactly(Map.entry(ALICE, 3L));
    }

    @Test
    void shouldForgetTheOldestReadMarksBeyondTheBound() {
        long user = user();
        for (int i = 1; i <= 25; i++) writer.remove(user, ALICE, i, T0 + i);
        apply();
        assertThat(redis.sync.zcard(redis.keys.marks(user))).isEqualTo(20);
        assertThat(redis.sync.zscore(redis.keys.marks(user), "5")).isNull();
        assertThat(redis.sync.zscore(redis.keys.marks(user), "6")).isNotNull();
    }

    @Test
    void shouldPreloadEveryScriptWhenAWriterOpens() {
        redis.sync.scriptFlush();
        try (UnreadWriter ignored = redis.writer(new UnreadLimits(5, 20))) {
            String[] shas = java.util.Arrays.stream(UnreadScript.values()).map(UnreadScript::sha).toArray(String[]::new);
            assertThat(redis.sync.scriptExists(shas)).containsOnly(true);
        }
    }

    @Test
    void shouldLoadTheScriptsAgainWhenRedisLostThem() {
        long user = user();
        redis.sync.scriptFlush();
        writer.deliver(user, ALICE, 1001, T0);
        apply();
        assertThat(total(user)).isEqualTo(1);
        redis.assertInvariants(user);
    }

    /**
     * An unfollow and a delivery of a post after a re-follow do not commute. When the unfollow fails (here: Redis
     * lost its script) and the delivery behind it succeeds, the retry must not apply the unfollow after the delivery.
     */
    @Test
    void shouldEndAsWrittenWhenAWriteFailsAndOneBehindItSucceeds() {
        long user = user();
        redis.sync.scriptFlush();
        redis.sync.scriptLoad(UnreadScript.DELIVER_ONE.body());
        writer.unfollow(user, ALICE, T0 + 10);
        writer.follow(user, ALICE, T0 + 15);
        writer.deliver(user, ALICE, 1001, T0 + 20);   // published after the user followed again
        apply();
        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 1L));
        redis.assertInvariants(user);
    }

    // ---- the merged index -------------------------------------------------------------------------------------

    private static UnreadItem item(long blogId, long authorId, long publishedAt) {
        return new UnreadItem(blogId, authorId, Instant.ofEpochMilli(publishedAt));
    }

    /** {@code members.lua}'s id_bytes run by Redis on a decimal id; null when it refuses the text. */
    private static byte[] idBytes(String decimal) {
        String script = UnreadScript.resource("members.lua") + "\nreturn id_bytes(ARGV[1])";
        return redis.binary.sync().eval(script, ScriptOutputType.VALUE, new byte[0][],
                decimal.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] bigEndian(long id) {
        return ByteBuffer.allocate(8).putLong(id).array();
    }

    @Test
    void shouldTurnDecimalIdsIntoTheirEightBigEndianBytesExactlyInLua() {
        List<Long> ids = new ArrayList<>(List.of(0L, 1L, 255L, 256L, 65_535L, 65_536L, (1L << 53) - 1, 1L << 53,
                (1L << 53) + 1, 999_999_999L, 1_000_000_000L, 1_000_000_001L, Long.MAX_VALUE - 1, Long.MAX_VALUE));
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) ids.add(random.nextLong(1, Long.MAX_VALUE) >>> random.nextInt(63));
        for (long id : ids) {
            assertThat(idBytes(Long.toString(id))).as("id %d", id).isEqualTo(bigEndian(id));
        }
        for (String notAnId : List.of("-1", "00", "01", "1e3", "12a", " 7", "9223372036854775808", "10000000000000000000",
                "99999999999999999999")) {
            assertThat(idBytes(notAnId)).as("'%s'", notAnId).isNull();
        }
    }

    @Test
    void shouldAddEachDeliveryToTheMergedIndexWithTheIdsAsBigEndianBytes() {
        long user = user();
        writer.deliver(user, BIG, (1L << 53) + 1, T0);
        writer.deliver(user, ALICE, 256, T0);
        writer.deliver(user, ALICE, 255, T0 + 1);
        writer.deliver(user, ALICE, 255, T0 + 1);   // a replay
        writer.remove(user, BOB, 77, T0 + 2);
        writer.deliver(user, BOB, 77, T0);          // read before it arrived: stays out of both
        apply();

        byte[] first = redis.binary.sync().zrange(redis.keys.mergedBytes(user), 0, 0).getFirst();
        assertThat(first).isEqualTo(ByteBuffer.allocate(16).putLong(ALICE).putLong(256).array());
        assertThat(redis.merged(redis.keys, user)).containsExactly(
                item(256, ALICE, T0), item((1L << 53) + 1, BIG, T0), item(255, ALICE, T0 + 1));
        redis.assertInvariants(user);
    }

    @Test
    void shouldDropWhatTheCapTrimsFromTheMergedIndex() {
        long user = user();
        writer.deliver(user, BOB, 1, T0);
        for (int i = 1; i <= 8; i++) writer.deliver(user, BIG, 100 + i, T0 + i);
        apply();

        assertThat(redis.merged(redis.keys, user)).containsExactly(item(1, BOB, T0),
                item(104, BIG, T0 + 4), item(105, BIG, T0 + 5), item(106, BIG, T0 + 6), item(107, BIG, T0 + 7),
                item(108, BIG, T0 + 8));
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveAReadOrDeletedBlogFromTheMergedIndex() {
        long user = user();
        writer.deliver(user, BIG, 1, T0);
        writer.deliver(user, ALICE, 1, T0);
        writer.remove(user, BIG, 1, T0 + 5);
        apply();

        assertThat(redis.merged(redis.keys, user)).containsExactly(item(1, ALICE, T0));
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveExactlyWhatAReadAllRemovesFromTheMergedIndex() {
        long user = user();
        for (long blog = 1; blog <= 4; blog++) {
            writer.deliver(user, BIG, blog, T0 + blog);
            writer.deliver(user, BOB, 10 + blog, T0 + blog);
        }
        writer.readAll(user, BIG, T0 + 2);
        writer.readAll(user, BIG, T0 + 2);          // a replay
        apply();

        assertThat(redis.merged(redis.keys, user)).containsExactly(item(11, BOB, T0 + 1), item(12, BOB, T0 + 2),
                item(13, BOB, T0 + 3), item(3, BIG, T0 + 3), item(14, BOB, T0 + 4), item(4, BIG, T0 + 4));
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveTheWholeAuthorFromTheMergedIndexOnUnfollow() {
        long user = user();
        for (long blog = 1; blog <= 3; blog++) {
            writer.deliver(user, BIG, blog, T0 + blog);
            writer.deliver(user, BOB, 10 + blog, T0 + blog);
        }
        writer.unfollow(user, BIG, T0 + 10);
        writer.unfollow(user, BIG, T0 + 10);        // a replay
        apply();

        assertThat(redis.merged(redis.keys, user)).containsExactly(item(11, BOB, T0 + 1), item(12, BOB, T0 + 2),
                item(13, BOB, T0 + 3));
        redis.assertInvariants(user);

        writer.unfollow(user, BOB, T0 + 10);
        apply();
        assertThat(redis.sync.exists(redis.keys.merged(user))).as("an empty index is no key").isZero();
        redis.assertInvariants(user);
    }
}
