package io.readmark.processor.graph;

import io.readmark.processor.InMemoryStores;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Pairs stored under the former {@code authorId ‖ followerId} keys, moved to the keys the graph walks by slot. */
class FollowerKeyUpgradeTest {

    private static final long AUTHOR = 7;

    private final KeyValueStore<Bytes, byte[]> pairs = InMemoryStores.bytes(FollowerGraph.STORE_NAME);
    private final KeyValueStore<Bytes, byte[]> counts = InMemoryStores.bytes(FollowerGraph.COUNTS_STORE_NAME);
    private final FollowerGraph graph = new FollowerGraph(pairs, counts, new BigVPolicy(1_000, 900));

    private void oldPair(long author, long follower, byte[] value) {
        pairs.put(Bytes.wrap(ByteBuffer.allocate(2 * Long.BYTES).putLong(author).putLong(follower).array()), value);
    }

    private static byte[] followedAt(long millis) {
        return ByteBuffer.allocate(Long.BYTES).putLong(millis).array();
    }

    private List<Long> followersBefore(long author, long beforeMillis) {
        List<Long> followers = new ArrayList<>();
        graph.forEachFollower(author, beforeMillis, followers::add);
        return followers;
    }

    @Test
    void shouldMoveEveryOldPairWithItsStateAndLeaveNoOldKey() {
        LongStream.rangeClosed(1, 25_000).forEach(follower -> oldPair(AUTHOR, follower, followedAt(follower)));
        oldPair(AUTHOR + 1, 42, followedAt(5));

        assertThat(FollowerKeyUpgrade.run(pairs)).isEqualTo(25_001);

        assertThat(followersBefore(AUTHOR, Long.MAX_VALUE)).hasSize(25_000).doesNotHaveDuplicates();
        assertThat(followersBefore(AUTHOR, 11)).as("each pair kept its follow time").containsExactlyInAnyOrder(
                LongStream.rangeClosed(1, 10).boxed().toArray(Long[]::new));
        assertThat(followersBefore(AUTHOR + 1, Long.MAX_VALUE)).containsExactly(42L);
        assertThat(pairs.approximateNumEntries()).as("the new pairs and the marker").isEqualTo(25_001 + 1);
        assertThat(graph.unfollow(AUTHOR, 3, 100)).as("found under its new key")
                .isEqualTo(FollowerGraph.UnfollowOutcome.UNFOLLOWED);
    }

    /** A crash after some pairs moved: both keys of one pair may be there, with the same value. */
    @Test
    void shouldFinishAConversionStoppedMidwayAndThenSkipTheScan() {
        oldPair(AUTHOR, 100, followedAt(10));
        oldPair(AUTHOR, 200, followedAt(20));
        pairs.put(FollowerGraph.key(AUTHOR, UnreadKeys.slot(100), 100), followedAt(10)); // moved, old key not yet deleted
        pairs.put(FollowerGraph.key(AUTHOR, UnreadKeys.slot(300), 300), followedAt(30)); // moved and deleted

        FollowerKeyUpgrade.run(pairs);

        assertThat(followersBefore(AUTHOR, Long.MAX_VALUE)).containsExactlyInAnyOrder(100L, 200L, 300L);
        oldPair(AUTHOR, 400, followedAt(40));
        assertThat(FollowerKeyUpgrade.run(pairs)).as("the marker: no scan at a later start").isZero();
    }
}
