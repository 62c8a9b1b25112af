package io.readmark.processor.graph;

import io.readmark.processor.InMemoryStores;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.readmark.processor.graph.FollowerGraph.UnfollowOutcome.STALE;
import static io.readmark.processor.graph.FollowerGraph.UnfollowOutcome.UNFOLLOWED;
import static org.assertj.core.api.Assertions.assertThat;

/** The follower graph on in-memory stores. */
class FollowerGraphTest {

    private static final long AUTHOR = 7;
    private static final long OTHER = 8;

    private final KeyValueStore<Bytes, byte[]> pairs = InMemoryStores.bytes(FollowerGraph.STORE_NAME);
    private final KeyValueStore<Bytes, byte[]> counts = InMemoryStores.bytes(FollowerGraph.COUNTS_STORE_NAME);
    private final FollowerGraph graph = new FollowerGraph(pairs, counts, new BigVPolicy(3, 2));

    private List<Long> followersBefore(long author, long beforeMillis) {
        List<Long> followers = new ArrayList<>();
        graph.forEachFollower(author, beforeMillis, followers::add);
        return followers;
    }

    @Test
    void shouldListAnAuthorsFollowersSlotBySlotAndNoOneElses() {
        graph.follow(AUTHOR, 10894, 10);
        graph.follow(AUTHOR, 300, 10);
        graph.follow(AUTHOR, 100, 10);
        graph.follow(OTHER, 200, 10);
        graph.follow(AUTHOR, Long.MAX_VALUE, 10);

        assertThat(List.of(300L, Long.MAX_VALUE, 100L, 10894L)).extracting(UnreadKeys::slot)
                .as("the slots of their keys' hash tags").containsExactly(5536, 13322, 15296, 15296);
        assertThat(followersBefore(AUTHOR, Long.MAX_VALUE)).as("by slot, then id: 100 and 10894 share a slot")
                .containsExactly(300L, Long.MAX_VALUE, 100L, 10894L);
        assertThat(followersBefore(OTHER, Long.MAX_VALUE)).containsExactly(200L);
        assertThat(followersBefore(9, Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void shouldListOnlyThoseWhoFollowedBeforeTheGivenTime() {
        graph.follow(AUTHOR, 100, 10);
        graph.follow(AUTHOR, 200, 20);
        graph.follow(AUTHOR, 300, 30);

        assertThat(followersBefore(AUTHOR, 20)).containsExactly(100L);
        assertThat(followersBefore(AUTHOR, 21)).containsExactlyInAnyOrder(100L, 200L);
        assertThat(followersBefore(AUTHOR, 10)).isEmpty();
    }

    @Test
    void shouldKeepTheEarliestFollowsTimeAndCountAPairOnce() {
        graph.follow(AUTHOR, 100, 50);
        graph.follow(AUTHOR, 100, 10);
        graph.follow(AUTHOR, 100, 30);

        assertThat(graph.followerCount(AUTHOR)).isEqualTo(1);
        assertThat(followersBefore(AUTHOR, 10)).isEmpty();
        assertThat(followersBefore(AUTHOR, 11)).as("followed since 10, whatever came first").containsExactly(100L);
    }

    @Test
    void shouldCountFollowsAndUnfollowsOfCurrentPairsOnly() {
        graph.follow(AUTHOR, 100, 10);
        graph.follow(AUTHOR, 200, 10);
        graph.unfollow(AUTHOR, 100, 20);
        graph.unfollow(AUTHOR, 100, 20);
        graph.unfollow(AUTHOR, 999, 20);

        assertThat(graph.followerCount(AUTHOR)).isEqualTo(1);
        assertThat(followersBefore(AUTHOR, Long.MAX_VALUE)).containsExactly(200L);

        graph.unfollow(AUTHOR, 200, 20);
        assertThat(graph.followerCount(AUTHOR)).isZero();
        assertThat(counts.approximateNumEntries()).as("no count is kept for an author without followers").isZero();
    }

    @Test
    void shouldWalkFollowersAfterACursorUntilTheActionStopsAndReportEveryFollowerPassed() {
        for (long follower = 1; follower <= 6; follower++) graph.follow(AUTHOR, follower, follower == 3 ? 100 : 10);
        List<Long> taken = new ArrayList<>();
        List<Long> walked = new ArrayList<>();

        // In walk order (by slot) followers 6, 2, 3, 4, 5, 1.
        graph.forEachFollowerAfter(AUTHOR, new FollowerGraph.Position(UnreadKeys.slot(6), 6), 50, follower -> {
            taken.add(follower);
            return taken.size() < 3;
        }, position -> walked.add(position.followerId()));

        assertThat(taken).as("follower 3 followed too late").containsExactly(2L, 4L, 5L);
        assertThat(walked).as("the cursor also moves past the late follower").containsExactly(2L, 3L, 4L, 5L);
    }

    @Test
    void shouldWalkNothingAfterTheLastPossibleFollower() {
        graph.follow(AUTHOR, Long.MAX_VALUE, 10);
        List<Long> walked = new ArrayList<>();

        graph.forEachFollowerAfter(AUTHOR, FollowerGraph.Position.END, Long.MAX_VALUE, follower -> true,
                position -> walked.add(position.followerId()));

        assertThat(walked).isEmpty();
    }

    /** A pair stored with an empty value has no follow time. */
    @Test
    void shouldTakeAPairWithoutAFollowTimeAsFollowedBeforeEverything() {
        pairs.put(FollowerGraph.key(AUTHOR, UnreadKeys.slot(100), 100), new byte[0]);

        assertThat(followersBefore(AUTHOR, Long.MIN_VALUE + 1)).containsExactly(100L);
    }

    @Test
    void shouldFlagABigVAtTheThresholdAndReleaseItOnlyBelowTheReleaseLevel() {
        graph.follow(AUTHOR, 1, 10);
        graph.follow(AUTHOR, 2, 10);
        assertThat(graph.isBigV(AUTHOR)).isFalse();

        graph.follow(AUTHOR, 3, 10);
        assertThat(graph.isBigV(AUTHOR)).isTrue();

        graph.unfollow(AUTHOR, 3, 20);
        assertThat(graph.isBigV(AUTHOR)).as("2 followers: still at the release level").isTrue();

        graph.unfollow(AUTHOR, 2, 20);
        assertThat(graph.isBigV(AUTHOR)).isFalse();

        graph.follow(AUTHOR, 2, 30);
        assertThat(graph.isBigV(AUTHOR)).as("back to 2 followers, below the threshold").isFalse();
        assertThat(graph.isBigV(OTHER)).as("an author without followers").isFalse();
    }

    @Test
    void shouldResolveFollowsAndUnfollowsOfAPairToTheNewestWhateverTheirOrder() {
        assertThat(graph.follow(AUTHOR, 100, 10)).isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).isEqualTo(UNFOLLOWED);
        assertThat(graph.follow(AUTHOR, 100, 10)).as("a replay from before the unfollow").isEqualTo(FollowerGraph.FollowOutcome.STALE);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).as("the unfollow replayed: Redis may have missed it").isEqualTo(UNFOLLOWED);
        assertThat(followersBefore(AUTHOR, Long.MAX_VALUE)).isEmpty();

        assertThat(graph.follow(AUTHOR, 100, 30)).isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING_AGAIN);
        assertThat(graph.follow(AUTHOR, 100, 30)).as("the re-follow replayed").isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING_AGAIN);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).as("an unfollow from before the re-follow: Redis is told of the re-follow again")
                .isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(30));
        assertThat(graph.followerCount(AUTHOR)).isEqualTo(1);
        assertThat(followersBefore(AUTHOR, 30)).as("followed again at 30").isEmpty();
        assertThat(followersBefore(AUTHOR, 31)).containsExactly(100L);
    }

    @Test
    void shouldFollowSinceARepeatedFollowsOriginalProcessedAfterIt() {
        // In time: follow 100, follow 300 (repeated); processed 300, then 100.
        assertThat(graph.follow(AUTHOR, 100, 300)).isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING);
        assertThat(graph.follow(AUTHOR, 100, 100)).as("the original: nothing for Redis").isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING);

        assertThat(followersBefore(AUTHOR, 101)).as("following since 100").containsExactly(100L);
        assertThat(graph.followerCount(AUTHOR)).isEqualTo(1);
        assertThat(graph.unfollow(AUTHOR, 100, 200)).as("an unfollow between the two, processed last")
                .isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(300));
        assertThat(followersBefore(AUTHOR, 300)).as("followed again at 300").isEmpty();
    }

    @Test
    void shouldKeepAFollowOlderThanAKnownUnfollowStaleWhenItArrivesLast() {
        // In time: follow 10, unfollow 20, follow 30, follow 40; processed 40, 20, 30, 10.
        graph.follow(AUTHOR, 100, 40);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(40));
        assertThat(graph.follow(AUTHOR, 100, 30)).as("after the unfollow, before the re-follow: the re-follow moves back")
                .isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING_AGAIN);
        assertThat(graph.follow(AUTHOR, 100, 10)).as("before the unfollow").isEqualTo(FollowerGraph.FollowOutcome.STALE);

        assertThat(followersBefore(AUTHOR, 30)).isEmpty();
        assertThat(followersBefore(AUTHOR, 31)).containsExactly(100L);
        assertThat(graph.followerCount(AUTHOR)).isEqualTo(1);
    }

    @Test
    void shouldKeepAnUnfollowOlderThanTheOneAReFollowCameAfterStale() {
        // In time: follow 10, unfollow 20, unfollow 30 (repeated), follow 40; processed 10, 30, 40, 20, 30.
        graph.follow(AUTHOR, 100, 10);
        assertThat(graph.unfollow(AUTHOR, 100, 30)).isEqualTo(UNFOLLOWED);
        assertThat(graph.follow(AUTHOR, 100, 40)).isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING_AGAIN);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).as("older than the unfollow before the re-follow").isEqualTo(STALE);
        assertThat(graph.unfollow(AUTHOR, 100, 30)).as("that unfollow replayed: Redis may have missed it")
                .isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(40));

        // The re-follow processed before both unfollows.
        graph.follow(AUTHOR, 200, 10);
        graph.follow(AUTHOR, 200, 40);
        assertThat(graph.unfollow(AUTHOR, 200, 30)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(40));
        assertThat(graph.unfollow(AUTHOR, 200, 20)).isEqualTo(STALE);

        assertThat(followersBefore(AUTHOR, 40)).isEmpty();
        assertThat(followersBefore(AUTHOR, 41)).containsExactlyInAnyOrder(100L, 200L);
    }

    @Test
    void shouldKeepAnUnfollowThatArrivesBeforeTheFollowItUndoes() {
        assertThat(graph.unfollow(AUTHOR, 100, 20)).isEqualTo(UNFOLLOWED);
        assertThat(graph.follow(AUTHOR, 100, 10)).isEqualTo(FollowerGraph.FollowOutcome.STALE);

        assertThat(graph.followerCount(AUTHOR)).isZero();
        assertThat(followersBefore(AUTHOR, Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void shouldFollowAgainWhenAReFollowArrivesBeforeTheUnfollowItComesAfter() {
        graph.follow(AUTHOR, 100, 10);
        assertThat(graph.follow(AUTHOR, 100, 30)).as("while following: nothing for Redis yet").isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING);
        assertThat(followersBefore(AUTHOR, 11)).as("still following since 10").containsExactly(100L);

        assertThat(graph.unfollow(AUTHOR, 100, 20)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(30));
        assertThat(graph.followerCount(AUTHOR)).isEqualTo(1);
        assertThat(followersBefore(AUTHOR, 30)).as("followed again at 30").isEmpty();
        assertThat(followersBefore(AUTHOR, 31)).containsExactly(100L);
        assertThat(graph.follow(AUTHOR, 100, 30)).as("the re-follow replayed").isEqualTo(FollowerGraph.FollowOutcome.FOLLOWING_AGAIN);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).as("the unfollow replayed").isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(30));
    }

    @Test
    void shouldResolveTwoUnfollowsAndFollowsArrivingNewestFollowFirst() {
        // In time: follow 10, unfollow 20, follow 30, unfollow 40, follow 50; processed 10, 50, 30, 20, 40.
        graph.follow(AUTHOR, 100, 10);
        graph.follow(AUTHOR, 100, 50);
        graph.follow(AUTHOR, 100, 30);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(30));
        assertThat(graph.unfollow(AUTHOR, 100, 40)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(50));

        assertThat(graph.followerCount(AUTHOR)).isEqualTo(1);
        assertThat(followersBefore(AUTHOR, 50)).isEmpty();
        assertThat(followersBefore(AUTHOR, 51)).containsExactly(100L);
    }

    @Test
    void shouldFollowAgainSinceTheFirstFollowAfterTheUnfollowNotTheLatest() {
        // In time: follow 1, unfollow 2, follow 3, follow 5 again (a repeated follow); the unfollow processed last.
        graph.follow(AUTHOR, 100, 1);
        graph.follow(AUTHOR, 100, 5);
        graph.follow(AUTHOR, 100, 3);
        assertThat(graph.unfollow(AUTHOR, 100, 2)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(3));
        assertThat(followersBefore(AUTHOR, 3)).isEmpty();
        assertThat(followersBefore(AUTHOR, 4)).containsExactly(100L);
        // And when the unfollow came between the two later follows instead:
        graph.follow(AUTHOR, 200, 1);
        graph.follow(AUTHOR, 200, 3);
        graph.follow(AUTHOR, 200, 5);
        assertThat(graph.unfollow(AUTHOR, 200, 4)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(5));
    }

    @Test
    void shouldKeepLaterFollowsOfAPairStoredBeforeFollowTimesWereKept() {
        pairs.put(FollowerGraph.key(AUTHOR, UnreadKeys.slot(100), 100), new byte[0]);
        graph.follow(AUTHOR, 100, 30);
        assertThat(followersBefore(AUTHOR, 1)).as("still followed before everything").containsExactly(100L);
        assertThat(graph.unfollow(AUTHOR, 100, 20)).isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(30));
        assertThat(followersBefore(AUTHOR, 31)).containsExactly(100L);
        assertThat(followersBefore(AUTHOR, 30)).isEmpty();
    }

    @Test
    void shouldKeepTheNewestLaterFollowsOfAPairThatHasTooMany() {
        graph.follow(AUTHOR, 100, 0);
        for (int later = 1; later <= FollowerGraph.MAX_LATER_FOLLOWS + 4; later++) graph.follow(AUTHOR, 100, 10L * later);
        assertThat(graph.unfollow(AUTHOR, 100, 5)).as("the four oldest later follows were dropped")
                .isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(50));
    }

    @Test
    void shouldLetAnUnfollowAtOrAfterTheLatestFollowWin() {
        graph.follow(AUTHOR, 100, 10);
        graph.follow(AUTHOR, 100, 30);
        assertThat(graph.unfollow(AUTHOR, 100, 30)).as("at the very moment of the latest follow").isEqualTo(UNFOLLOWED);
        assertThat(graph.followerCount(AUTHOR)).isZero();

        graph.follow(AUTHOR, 200, 10);
        graph.follow(AUTHOR, 200, 30);
        assertThat(graph.unfollow(AUTHOR, 200, 40)).isEqualTo(UNFOLLOWED);
        assertThat(graph.unfollow(AUTHOR, 300, 5)).as("a pair never seen").isEqualTo(UNFOLLOWED);
        graph.follow(AUTHOR, 400, 10);
        assertThat(graph.unfollow(AUTHOR, 400, 5)).as("from before the first follow: Redis hears of that follow as a re-follow")
                .isEqualTo(FollowerGraph.UnfollowOutcome.followedAgainAt(10));
        assertThat(followersBefore(AUTHOR, Long.MAX_VALUE)).containsExactly(400L);
    }
}
