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
 * before it was published. Processing order alone cannot promise that: after a crash the store is restored from its
 * changelog, which can be ahead of the committed input offsets, so a replayed publish would meet follows that came
 * after it; a duplicate publish sent later would too; and a big-V fan-out walks the follower range long after the
 * publish.
 */
public final class FollowerGraph {

    public static final String STORE_NAME = "followers";
    public static final String COUNTS_STORE_NAME = "follower-counts";
    /** Pairs stored before follow times were kept have an empty value: followed before any post. */
    private static final long FOLLOWED_BEFORE_EVERYTHING = Long.MIN_VALUE;

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

    /**
     * Adds the pair, followed at {@code followedAtMillis}; a repeated follow changes nothing (the pair keeps the
     * first follow's time, and the count moves only when the pair is new).
     */
    public void follow(long authorId, long followerId, long followedAtMillis) {
        Bytes key = key(authorId, followerId);
        if (pairs.get(key) != null) return;
        pairs.put(key, ByteBuffer.allocate(Long.BYTES).putLong(followedAtMillis).array());
        adjustCount(authorId, +1);
    }

    public void unfollow(long authorId, long followerId) {
        Bytes key = key(authorId, followerId);
        if (pairs.get(key) == null) return;
        pairs.delete(key);
        adjustCount(authorId, -1);
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
                if (followedAt(pair.value) < beforeMillis && !action.test(follower)) return;
            }
        }
    }

    private static long followedAt(byte[] value) {
        return value.length < Long.BYTES ? FOLLOWED_BEFORE_EVERYTHING : ByteBuffer.wrap(value).getLong();
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
