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
        writer = redis.writer(new UnreadLimits(5, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 20));
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
        writer.deliver(user, BOB, 2001, T0 + 1_000);
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
        writer.deliver(user, ALICE, 1002, T0 + 1_000);
        writer.remove(user, ALICE, 1001, T0 + 5_000);
        writer.remove(user, ALICE, 1001, T0 + 5_000);
        writer.remove(user, ALICE, 9999, T0 + 5_000);
        apply();

        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 1L));
        assertThat(total(user)).isEqualTo(1);
        redis.assertInvariants(user);
    }

    @Test
    void shouldKeepABlogReadWhenItsDeliveryArrivesAfterTheRead() {
        long user = user();
        writer.remove(user, ALICE, 1001, T0 + 5_000);
        writer.deliver(user, ALICE, 1001, T0);
        apply();

        assertThat(total(user)).isZero();
        assertThat(redis.sync.exists(redis.keys.h(user))).isZero();
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveEverythingUpToReadAtAndKeepLaterDeliveriesOfOlderBlogsOut() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 10_000);
        writer.deliver(user, ALICE, 3, T0 + 20_000);
        writer.deliver(user, BOB, 4, T0 + 5_000);
        writer.readAll(user, ALICE, T0 + 10_000);
        apply();
        assertThat(byAuthor(user)).containsExactlyInAnyOrderEntriesOf(Map.of(ALICE, 1L, BOB, 1L));

        // a lagging delivery of an older blog, and a replay of the read-all
        writer.deliver(user, ALICE, 5, T0 + 7_000);
        writer.readAll(user, ALICE, T0 + 10_000);
        // an older read-all arriving late does not move the floor back
        writer.readAll(user, ALICE, T0 + 1_000);
        writer.deliver(user, ALICE, 6, T0 + 8_000);
        // newer blogs still count
        writer.deliver(user, ALICE, 7, T0 + 30_000);
        apply();

        assertThat(byAuthor(user)).containsExactlyInAnyOrderEntriesOf(Map.of(ALICE, 2L, BOB, 1L));
        assertThat(total(user)).isEqualTo(3);
        redis.assertInvariants(user);
    }

    @Test
    void shouldDropTheAuthorsUnreadOnUnfollowAndStayDroppedOnReplay() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 1_000);
        writer.deliver(user, BOB, 3, T0 + 2_000);
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.deliver(user, ALICE, 4, T0 + 9_000);   // a big-V chunk still in flight from before the unfollow
        apply();

        assertThat(byAuthor(user)).containsExactly(Map.entry(BOB, 1L));
        assertThat(total(user)).isEqualTo(1);
        assertThat(redis.sync.hexists(redis.keys.h(user), Long.toString(ALICE))).isFalse();
        redis.assertInvariants(user);
    }

    /**
     * A big-V chunk made before the unfollow was processed can carry a post published after the unfollow (the post
     * was processed first): it stays out, as the user did not follow the author when it was published.
     */
    @Test
    void shouldRefuseDeliveriesAfterAnUnfollowWhateverTheirPostsTime() {
        long user = user();
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.deliver(user, ALICE, 1, T0 + 12_000);
        writer.deliver(user, BOB, 2, T0 + 12_000);
        apply();

        assertThat(byAuthor(user)).containsExactly(Map.entry(BOB, 1L));
        redis.assertInvariants(user);
    }

    @Test
    void shouldAcceptOnlyPostsAfterAReFollowAndIgnoreReplaysOfOlderFollowsAndUnfollows() {
        long user = user();
        writer.follow(user, ALICE, T0);          // a first follow writes nothing
        writer.deliver(user, ALICE, 1, T0 + 5_000);
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.follow(user, ALICE, T0 + 20_000);
        writer.deliver(user, ALICE, 2, T0 + 15_000); // published while the user did not follow
        writer.deliver(user, ALICE, 3, T0 + 25_000);
        writer.follow(user, ALICE, T0);          // replays from before the re-follow
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.deliver(user, ALICE, 4, T0 + 30_000);
        apply();

        assertThat(unread(user, ALICE)).containsExactly("3", "4");
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
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.follow(user, ALICE, T0 + 30_000, T0 + 10_000);
        writer.follow(user, ALICE, T0 + 5_000, T0 + 10_000);   // stale: before the unfollow
        writer.deliver(user, ALICE, 1, T0 + 15_000);
        writer.follow(user, ALICE, T0 + 20_000, T0 + 10_000);
        writer.follow(user, ALICE, T0 + 12_000);            // no unfollow known: does not move it
        writer.deliver(user, ALICE, 2, T0 + 15_000);         // published before the earliest re-follow after it
        writer.deliver(user, ALICE, 3, T0 + 22_000);
        writer.deliver(user, ALICE, 4, T0 + 35_000);
        apply();

        assertThat(unread(user, ALICE)).containsExactly("3", "4");
        redis.assertInvariants(user);
    }

    /**
     * A rebuild replays a pair's history beside the live state: a re-follow replayed with the unfollow before it does
     * not move the live re-follow back over a later unfollow Redis knows, so the live unread and new deliveries stay.
     */
    @Test
    void shouldNotMoveAReFollowBackOverALaterUnfollowWhenReplayed() {
        long user = user();
        writer.unfollow(user, ALICE, T0 + 200_000);
        writer.unfollow(user, ALICE, T0 + 400_000);
        writer.follow(user, ALICE, T0 + 500_000, T0 + 400_000);
        writer.deliver(user, ALICE, 1, T0 + 550_000);
        writer.follow(user, ALICE, T0 + 300_000, T0 + 200_000);    // replayed by a rebuild
        writer.unfollowBefore(user, ALICE, T0 + 200_000, T0 + 300_000);
        writer.deliver(user, ALICE, 2, T0 + 600_000);
        apply();

        assertThat(redis.sync.hget(redis.keys.floors(user), "m" + ALICE)).isEqualTo("F" + (T0 + 500_000));
        assertThat(unread(user, ALICE)).containsExactly("1", "2");
        redis.assertInvariants(user);
    }

    /**
     * An unfollow whose re-follow was processed first: what was delivered meanwhile and published after the re-follow
     * stays, as it would had the two come in their order before those deliveries; replays and older changes are ignored.
     */
    @Test
    void shouldKeepWhatCameAfterTheReFollowWhenTheUnfollowComesAfterIt() {
        long user = user();
        writer.deliver(user, ALICE, 1, T0 + 5_000);
        writer.deliver(user, ALICE, 2, T0 + 15_000);  // published while the user did not follow
        writer.deliver(user, ALICE, 3, T0 + 25_000);
        writer.inboxSeen(user, T0 + 30_000);
        writer.unfollowBefore(user, ALICE, T0 + 10_000, T0 + 20_000);
        writer.unfollowBefore(user, ALICE, T0 + 10_000, T0 + 20_000);
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.follow(user, ALICE, T0 + 20_000);
        writer.deliver(user, ALICE, 4, T0 + 18_000); // a big-V chunk from before
        writer.deliver(user, ALICE, 5, T0 + 35_000);
        apply();

        assertThat(unread(user, ALICE)).containsExactly("3", "5");
        assertThat(redis.sync.hget(redis.keys.floors(user), "m" + ALICE)).isEqualTo("F" + (T0 + 20_000));
        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 2L));
        redis.assertInvariants(user);

        writer.unfollow(user, ALICE, T0 + 40_000);
        writer.unfollowBefore(user, ALICE, T0 + 30_000, T0 + 38_000); // older than the unfollow Redis has: nothing
        apply();
        assertThat(total(user)).isZero();
        redis.assertInvariants(user);
    }

    @Test
    void shouldKeepOnlyTheNewestUnreadPerAuthorWithCountsEqualToWhatIsKept() {
        long user = user();
        for (int i = 1; i <= 8; i++) writer.deliver(user, ALICE, i, T0 + i * 1_000);
        apply();
        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 5L));
        assertThat(unread(user, ALICE)).containsExactly("4", "5", "6", "7", "8");

        // a replayed delivery of a trimmed blog does not come back, even after reads made room
        writer.remove(user, ALICE, 8, T0 + 100_000);
        writer.deliver(user, ALICE, 2, T0 + 2_000);
        apply();
        assertThat(unread(user, ALICE)).containsExactly("4", "5", "6", "7");
        redis.assertInvariants(user);
    }

    @Test
    void shouldForgetTheOldestReadMarksBeyondTheBound() {
        long user = user();
        for (int i = 1; i <= 25; i++) writer.remove(user, ALICE, i, T0 + i * 1_000);
        apply();
        assertThat(redis.sync.zcard(redis.keys.z(user))).as("tombstones only").isEqualTo(20);
        assertThat(redis.sync.zscore(redis.keys.z(user), "5")).isNull();
        assertThat(redis.sync.zscore(redis.keys.z(user), "6")).as("the read's second + 1").isEqualTo((T0 + 6_000) / 1_000 + 1.0);
    }

    @Test
    void shouldPreloadEveryScriptWhenAWriterOpens() {
        redis.sync.scriptFlush();
        try (UnreadWriter ignored = redis.writer(new UnreadLimits(5, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 20))) {
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
        writer.unfollow(user, ALICE, T0 + 10_000);
        writer.follow(user, ALICE, T0 + 15_000);
        writer.deliver(user, ALICE, 1001, T0 + 20_000);   // published after the user followed again
        apply();
        assertThat(byAuthor(user)).containsExactly(Map.entry(ALICE, 1L));
        redis.assertInvariants(user);
    }

    // ---- the records ----------------------------------------------------------------------------------------

    private static UnreadItem item(long blogId, long authorId, long publishedAt) {
        return new UnreadItem(blogId, authorId, Instant.ofEpochMilli(publishedAt));
    }

    /** An author's unread blogs oldest first, as the reader pages them. */
    private static List<String> unread(long user, long author) {
        return redis.reader().page(user, author, 1_000, null).items().reversed().stream().map(item -> Long.toString(item.blogId())).toList();
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
    void shouldTurnEightBigEndianBytesIntoTheirDecimalIdExactlyInLua() {
        List<Long> ids = new ArrayList<>(List.of(1L, 255L, 256L, (1L << 53) - 1, 1L << 53, (1L << 53) + 1, 999_999_999L,
                1_000_000_000L, 1_000_000_000_000_000_000L, Long.MAX_VALUE - 1, Long.MAX_VALUE));
        Random random = new Random(11);
        for (int i = 0; i < 200; i++) ids.add(random.nextLong(1, Long.MAX_VALUE) >>> random.nextInt(63));
        String script = UnreadScript.resource("counters.lua") + "\nreturn id_decimal(ARGV[1])";
        for (long id : ids) {
            byte[] decimal = redis.binary.sync().eval(script, ScriptOutputType.VALUE, new byte[0][], bigEndian(id));
            assertThat(new String(decimal, StandardCharsets.US_ASCII)).as("id %d", id).isEqualTo(Long.toString(id));
        }
    }

    @Test
    void shouldKeepEachAuthorsEntriesAsRecordsOfTheSecondAndTheBigEndianId() {
        long user = user();
        writer.deliver(user, BIG, (1L << 53) + 1, T0);
        writer.deliver(user, ALICE, 256, T0 + 999);
        writer.deliver(user, ALICE, 255, T0 + 1_000);
        writer.deliver(user, ALICE, 255, T0 + 1_000);   // a replay
        writer.remove(user, BOB, 77, T0 + 2_000);
        writer.deliver(user, BOB, 77, T0);              // read before it arrived: stays out
        apply();

        long second = T0 / 1_000;
        byte[] alice = redis.binary.sync().hget(redis.keys.hBytes(user), Long.toString(ALICE).getBytes(StandardCharsets.US_ASCII));
        assertThat(alice).as("newest first: (2^32 - 1 - second, blogId), big-endian").isEqualTo(ByteBuffer.allocate(24)
                .putInt((int) (4_294_967_295L - second - 1)).putLong(255).putInt((int) (4_294_967_295L - second)).putLong(256).array());
        assertThat(redis.entries(redis.keys, user)).containsExactly(
                item(255, ALICE, T0 + 1_000), item(256, ALICE, T0), item((1L << 53) + 1, BIG, T0));
        redis.assertInvariants(user);
    }

    @Test
    void shouldDropWhatTheCapTrimsFromZ() {
        long user = user();
        writer.deliver(user, BOB, 1, T0);
        for (int i = 1; i <= 8; i++) writer.deliver(user, BIG, 100 + i, T0 + i * 1_000);
        apply();

        assertThat(redis.entries(redis.keys, user)).containsExactly(item(108, BIG, T0 + 8_000), item(107, BIG, T0 + 7_000),
                item(106, BIG, T0 + 6_000), item(105, BIG, T0 + 5_000), item(104, BIG, T0 + 4_000), item(1, BOB, T0));
        redis.assertInvariants(user);
    }

    @Test
    void shouldCountNothingSeenForALateSeenPostTheAuthorCapDrops() {
        long user = user();
        try (UnreadWriter capped = redis.writer(new UnreadLimits(2, 1000, 20))) {
            capped.deliver(user, ALICE, 1, T0 + 200_000);
            capped.deliver(user, ALICE, 2, T0 + 100_000);
            capped.inboxSeen(user, T0 + 50_000);
            capped.deliver(user, ALICE, 3, T0 + 40_000);    // seen, and older than the author's two kept: dropped
            capped.awaitAcknowledged();
            assertThat(redis.reader().counts(user).unseen()).isEqualTo(2);
            redis.assertInvariants(user);

            capped.unfollow(user, ALICE, T0 + 300_000);
            capped.awaitAcknowledged();
        }
        UnreadCounts counts = redis.reader().counts(user);
        assertThat(counts.total()).isZero();
        assertThat(counts.unseen()).isZero();
        redis.assertInvariants(user);
    }

    @Test
    void shouldKeepOnlyTheNewestUnreadPerUserAcrossAuthors() {
        long user = user();
        try (UnreadWriter capped = redis.writer(new UnreadLimits(5, 4, 20))) {
            capped.deliver(user, ALICE, 1, T0 + 1_000);
            capped.deliver(user, BOB, 2, T0 + 2_000);
            capped.deliver(user, BIG, 3, T0 + 3_000);
            capped.deliver(user, ALICE, 4, T0 + 4_000);
            capped.deliver(user, BOB, 5, T0 + 5_000);       // the user's oldest, blog 1, goes
            capped.deliver(user, BIG, 6, T0 + 500);         // no newer than the trimmed: stays out
            capped.deliver(user, ALICE, 1, T0 + 1_000);     // a replay of the trimmed blog stays out
            capped.awaitAcknowledged();
        }
        assertThat(redis.entries(redis.keys, user)).extracting(UnreadItem::blogId).containsExactly(5L, 4L, 3L, 2L);
        assertThat(redis.reader().counts(user).byAuthor()).isEqualTo(Map.of(ALICE, 1L, BOB, 2L, BIG, 1L));
        assertThat(redis.sync.hget(redis.keys.floors(user), "trim")).as("the newest second trimmed, to its end")
                .isEqualTo(Long.toString(T0 + 1_999));
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveAReadOrDeletedBlogAndLeaveOneReadUnderAnotherAuthor() {
        long user = user();
        writer.deliver(user, BIG, 1, T0);
        writer.deliver(user, ALICE, 2, T0);
        writer.remove(user, BIG, 1, T0 + 5_000);
        writer.remove(user, BOB, 2, T0 + 5_000);    // not Bob's: blog ids are unique, so nothing is read
        apply();

        assertThat(redis.entries(redis.keys, user)).containsExactly(item(2, ALICE, T0));
        assertThat(redis.sync.zscore(redis.keys.z(user), "1")).as("a tombstone").isEqualTo(T0 / 1_000 + 6.0);
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveExactlyWhatAReadAllRemoves() {
        long user = user();
        for (long blog = 1; blog <= 4; blog++) {
            writer.deliver(user, BIG, blog, T0 + blog * 1_000);
            writer.deliver(user, BOB, 10 + blog, T0 + blog * 1_000);
        }
        writer.readAll(user, BIG, T0 + 2_500);      // covers its whole second
        writer.readAll(user, BIG, T0 + 2_500);      // a replay
        apply();

        assertThat(redis.entries(redis.keys, user)).containsExactly(item(14, BOB, T0 + 4_000), item(4, BIG, T0 + 4_000),
                item(13, BOB, T0 + 3_000), item(3, BIG, T0 + 3_000), item(12, BOB, T0 + 2_000), item(11, BOB, T0 + 1_000));
        redis.assertInvariants(user);
    }

    @Test
    void shouldRemoveTheWholeAuthorOnUnfollow() {
        long user = user();
        for (long blog = 1; blog <= 3; blog++) {
            writer.deliver(user, BIG, blog, T0 + blog * 1_000);
            writer.deliver(user, BOB, 10 + blog, T0 + blog * 1_000);
        }
        writer.unfollow(user, BIG, T0 + 10_000);
        writer.unfollow(user, BIG, T0 + 10_000);        // a replay
        apply();

        assertThat(redis.entries(redis.keys, user)).containsExactly(item(13, BOB, T0 + 3_000), item(12, BOB, T0 + 2_000),
                item(11, BOB, T0 + 1_000));
        redis.assertInvariants(user);

        writer.unfollow(user, BOB, T0 + 10_000);
        apply();
        assertThat(redis.sync.exists(redis.keys.z(user))).as("an empty z is no key").isZero();
        assertThat(redis.sync.hkeys(redis.keys.h(user))).as("only the state version").containsOnly("v");
        redis.assertInvariants(user);
    }
}
