package io.readmark.processor.graph;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * Who follows whom, in a Kafka Streams store keyed {@code authorId ‖ followerId} (two big-endian longs), so one
 * author's followers are one contiguous, ordered range; beside it each author's follower count and big-V flag.
 * Lives in the task of the author's partition, next to the author's blog events.
 *
 * <p>Each pair keeps when the follow happened (its event time), and a post reaches only followers who followed
 * before it was published. An unfollowed pair stays, marked with its time, so that follows and unfollows arriving out
 * of order or replayed resolve to the newest, and so that only a re-follow needs to tell Redis (see
 * {@code follow.lua}): a first follow writes nothing there. Processing order alone cannot promise that: after a crash the store is restored from its
 * changelog, which can be ahead of the committed input offsets, so a replayed publish would meet follows that came
 * after it; a duplicate publish sent later would too; and a big-V fan-out walks the follower range long after the
 * publish.
 */
public final class FollowerGraph {

    public static final String STORE_NAME = "followers";
    public static final String COUNTS_STORE_NAME = "follower-counts";
    /** Pairs stored before follow times were kept have an empty value: followed before any post. */
    private static final long FOLLOWED_BEFORE_EVERYTHING = Long.MIN_VALUE;
    /** A value of one of these bytes and the time: followed again after an unfollow, or unfollowed. */
    private static final byte FOLLOWED_AGAIN = 'F';
    private static final byte UNFOLLOWED = 'U';

    private final KeyValueStore<Bytes, byte[]> pairs;
    private final KeyValueStore<Bytes, byte[]> counts;
    private final BigVPolicy policy;

    public FollowerGraph(KeyValueStore<Bytes, byte[]> pairs, KeyValueStore<Bytes, byte[]> counts, BigVPolicy policy) {
        this.pairs = pairs;
        this.counts = counts;
        this.policy = policy;
    }

    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE_NAME), Serdes.Bytes(), Serdes.ByteArray());
    }

    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> countsStoreBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(COUNTS_STORE_NAME), Serdes.Bytes(), Serdes.ByteArray());
    }

    /** What a follow event meant for the pair, and so for Redis. */
    public enum FollowOutcome {
        /** Older than the pair's last unfollow: nothing changed. */
        STALE,
        /** The pair follows (newly, or already): Redis knows nothing of the pair beyond its unread. */
        FOLLOWING,
        /** The pair follows again after an unfollow (or this is that re-follow replayed): Redis must learn of it. */
        FOLLOWING_AGAIN
    }

    /**
     * Records a follow at {@code followedAtMillis}. A repeated follow changes nothing (the pair keeps its follow's
     * time, and the count moves only when the pair starts following); a follow older than the pair's last unfollow
     * is stale and changes nothing either.
     */
    public FollowOutcome follow(long authorId, long followerId, long followedAtMillis) {
        Bytes key = key(authorId, followerId);
        byte[] value = pairs.get(key);
        if (value == null) {
            pairs.put(key, ByteBuffer.allocate(Long.BYTES).putLong(followedAtMillis).array());
            adjustCount(authorId, +1);
            return FollowOutcome.FOLLOWING;
        }
        if (!isUnfollowed(value)) {
            return isFollowedAgain(value) && since(value) == followedAtMillis ? FollowOutcome.FOLLOWING_AGAIN : FollowOutcome.FOLLOWING;
        }
        if (followedAtMillis <= since(value)) return FollowOutcome.STALE;
        pairs.put(key, marked(FOLLOWED_AGAIN, followedAtMillis));
        adjustCount(authorId, +1);
        return FollowOutcome.FOLLOWING_AGAIN;
    }

    /**
     * Records an unfollow at {@code atMillis}; the pair stays in the store as unfollowed, so that a later follow is
     * known as a re-follow and a replayed older follow as stale. Returns false for an unfollow older than the pair's
     * current follow (a replay from before a re-follow), which changes nothing; true otherwise, also for a replay of
     * the pair's last unfollow, whose effect on Redis may not have been acknowledged before a crash.
     */
    public boolean unfollow(long authorId, long followerId, long atMillis) {
        Bytes key = key(authorId, followerId);
        byte[] value = pairs.get(key);
        if (value != null && atMillis < since(value)) return false;
        if (value != null && isUnfollowed(value) && atMillis == since(value)) return true;
        pairs.put(key, marked(UNFOLLOWED, atMillis));
        if (value != null && !isUnfollowed(value)) adjustCount(authorId, -1);
        return true;
    }

    public long followerCount(long authorId) {
        byte[] value = counts.get(authorKey(authorId));
        return value == null ? 0 : ByteBuffer.wrap(value).getLong();
    }

    public boolean isBigV(long authorId) {
        byte[] value = counts.get(authorKey(authorId));
        return value != null && value[Long.BYTES] == 1;
    }

    /**
     * Calls {@code action} for every current follower of the author who followed before {@code beforeMillis}, in
     * ascending follower id. {@code Long.MAX_VALUE}: every current follower.
     */
    public void forEachFollower(long authorId, long beforeMillis, LongConsumer action) {
        forEachFollowerAfter(authorId, 0, beforeMillis, follower -> {
            action.accept(follower);
            return true;
        }, follower -> { });
    }

    /**
     * Calls {@code action} for the author's followers with ids above {@code afterFollowerId} who followed before
     * {@code beforeMillis}, ascending, until it returns false. Lets a big fan-out resume where it stopped.
     *
     * @param walked told of every follower passed, whether it followed in time or not, so a cursor can move past it
     */
    public void forEachFollowerAfter(long authorId, long afterFollowerId, long beforeMillis, LongPredicate action, LongConsumer walked) {
        if (afterFollowerId == Long.MAX_VALUE) return;
        try (KeyValueIterator<Bytes, byte[]> followers = pairs.range(key(authorId, afterFollowerId + 1), key(authorId, Long.MAX_VALUE))) {
            while (followers.hasNext()) {
                KeyValue<Bytes, byte[]> pair = followers.next();
                long follower = ByteBuffer.wrap(pair.key.get()).getLong(Long.BYTES);
                walked.accept(follower);
                if (!isUnfollowed(pair.value) && since(pair.value) < beforeMillis && !action.test(follower)) return;
            }
        }
    }

    /** When the pair's state began: its follow, re-follow or unfollow. */
    private static long since(byte[] value) {
        if (value.length < Long.BYTES) return FOLLOWED_BEFORE_EVERYTHING;
        return ByteBuffer.wrap(value).getLong(value.length - Long.BYTES);
    }

    private static boolean isUnfollowed(byte[] value) {
        return value.length == Long.BYTES + 1 && value[0] == UNFOLLOWED;
    }

    private static boolean isFollowedAgain(byte[] value) {
        return value.length == Long.BYTES + 1 && value[0] == FOLLOWED_AGAIN;
    }

    private static byte[] marked(byte state, long atMillis) {
        return ByteBuffer.allocate(1 + Long.BYTES).put(state).putLong(atMillis).array();
    }

    private void adjustCount(long authorId, int delta) {
        long count = Math.max(0, followerCount(authorId) + delta);
        boolean bigV = policy.isBigV(count, isBigV(authorId));
        if (count == 0) {
            counts.delete(authorKey(authorId));
        } else {
            counts.put(authorKey(authorId), ByteBuffer.allocate(Long.BYTES + 1).putLong(count).put((byte) (bigV ? 1 : 0)).array());
        }
    }

    private static Bytes key(long authorId, long followerId) {
        return Bytes.wrap(ByteBuffer.allocate(2 * Long.BYTES).putLong(authorId).putLong(followerId).array());
    }

    private static Bytes authorKey(long authorId) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(authorId).array());
    }
}
