package io.readmark.processor.graph;

import io.readmark.store.unread.UnreadChanges;
import io.readmark.store.unread.UnreadKeys;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * Who follows whom, in a Kafka Streams store keyed {@code authorId ‖ slot ‖ followerId} (big-endian long, short,
 * long), so one author's followers are one contiguous range, walked slot by slot: {@code slot} is the Redis Cluster
 * slot of the follower's keys ({@link UnreadKeys#slot}), and consecutive followers of one slot may share a script.
 * Beside it each author's follower count and big-V flag. Lives in the task of the author's partition, next to the
 * author's blog events.
 *
 * <p>Each pair keeps its follow's event time, and a post reaches only followers who followed before it was
 * published: processing order cannot promise that, as a publish replayed after a crash (the store restored from its
 * changelog, ahead of the committed input) or sent again, or a big-V walk long after it, meets later follows. An
 * unfollowed pair stays, marked with its time, so that follows and unfollows out of order or replayed resolve to the
 * newest, and only a re-follow tells Redis (see {@code follow.lua}); a first follow writes nothing there. The pair
 * follows since its earliest follow after its last known unfollow, whichever of them was processed first.
 */
public final class FollowerGraph {

    public static final String STORE_NAME = "followers";
    public static final String COUNTS_STORE_NAME = "follower-counts";
    /** A pair stored with an empty value (no follow time) followed before any post. */
    private static final long FOLLOWED_BEFORE_EVERYTHING = Long.MIN_VALUE;
    /**
     * A value of one of these bytes and the time: followed again after an unfollow, or unfollowed. A following pair's
     * value may go on with later follows (ascending), each a follow newer than the pair's follow seen while it
     * followed: that means an unfollow between the two yet to come (see {@link #unfollow}). A first follow with later
     * follows has the state byte {@link #FOLLOWED}; without them it is the time alone.
     */
    private static final byte FOLLOWED_AGAIN = 'F';
    private static final byte UNFOLLOWED = 'U';
    private static final byte FOLLOWED = 'f';
    /**
     * Followed again, and the time of the unfollow before: {@code R}, the follow, the unfollow, then later follows. A
     * follow older than the follow but newer than the unfollow moves the follow back; one not newer is stale. Pairs
     * stored as {@link #FOLLOWED_AGAIN} do not know their unfollow, and keep their follow.
     */
    private static final byte REFOLLOWED = 'R';
    /** More later follows of one pair than this (a pathological producer) keep the newest. */
    static final int MAX_LATER_FOLLOWS = 16;
    /** A pair's key: author, slot, follower. */
    static final int KEY_BYTES = 2 * Long.BYTES + Short.BYTES;
    private static final int LAST_SLOT = 16_383;

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
     * Records a follow at {@code followedAtMillis}. A repeated follow changes nothing for the graph's walks (the pair
     * keeps its follow's time, and the count moves only when the pair starts following), but a later one is kept for
     * an unfollow between the two that arrives after it; a follow older than the pair's last unfollow is stale and
     * changes nothing.
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
            long since = since(value);
            if (followedAtMillis > since) pairs.put(key, withLaterFollow(value, followedAtMillis));
            if (followedAtMillis < since) return followEarlier(key, value, followedAtMillis);
            return isFollowedAgain(value) && since == followedAtMillis ? FollowOutcome.FOLLOWING_AGAIN : FollowOutcome.FOLLOWING;
        }
        if (followedAtMillis <= since(value)) return FollowOutcome.STALE;
        pairs.put(key, refollowed(followedAtMillis, since(value), new long[0], 0));
        adjustCount(authorId, +1);
        return FollowOutcome.FOLLOWING_AGAIN;
    }

    /**
     * A follow older than the one the pair follows since, processed after it: the pair follows since this one, unless
     * an unfollow known to lie between them says it is stale. The newer follow stays as a later follow, for an unfollow
     * between the two yet to come.
     */
    private FollowOutcome followEarlier(Bytes key, byte[] value, long followedAtMillis) {
        if (value.length > Long.BYTES && value[0] == FOLLOWED_AGAIN) return FollowOutcome.FOLLOWING;
        boolean refollowed = isRefollowed(value);
        if (refollowed && followedAtMillis <= unfollowedAt(value)) return FollowOutcome.STALE;
        long[] later = new long[laterFollows(value) + 1];
        for (int i = 0; i < later.length - 1; i++) later[i] = laterFollow(value, i);
        later[later.length - 1] = since(value);
        Arrays.sort(later);
        if (refollowed) {
            pairs.put(key, refollowed(followedAtMillis, unfollowedAt(value), later, later.length));
            return FollowOutcome.FOLLOWING_AGAIN;
        }
        pairs.put(key, withLaterFollows(FOLLOWED, followedAtMillis, later, later.length));
        return FollowOutcome.FOLLOWING;
    }

    /**
     * What an unfollow event meant for the pair, and so for Redis.
     *
     * @param followedAgainAtMillis for {@link Kind#FOLLOWED_AGAIN}, the follow after the unfollow
     */
    public record UnfollowOutcome(Kind kind, long followedAgainAtMillis) {

        public enum Kind {
            /** Older than the pair's last unfollow, before or after its re-follow: nothing changed. */
            STALE,
            /** The pair follows no more (or this is that unfollow replayed): Redis drops the author's unread. */
            UNFOLLOWED,
            /**
             * A follow after this unfollow was processed before it: the pair follows again since then. Redis takes the
             * two as if processed in their order (both its scripts are idempotent and order-aware).
             */
            FOLLOWED_AGAIN
        }

        static final UnfollowOutcome STALE = new UnfollowOutcome(Kind.STALE, 0);
        static final UnfollowOutcome UNFOLLOWED = new UnfollowOutcome(Kind.UNFOLLOWED, 0);

        static UnfollowOutcome followedAgainAt(long atMillis) {
            return new UnfollowOutcome(Kind.FOLLOWED_AGAIN, atMillis);
        }
    }

    /**
     * Records an unfollow at {@code atMillis}; the pair stays in the store as unfollowed, so that a later follow is
     * known as a re-follow and a replayed older follow as stale. An unfollow after the pair's follow but before a later
     * follow processed already leaves the pair following again since the first such follow. An unfollow older than
     * the pair's follow changes nothing in the graph, but Redis is told of the follow as a re-follow after it: a crash
     * may have lost the Redis writes of an earlier order, or a rebuild stopped midway left them. A replay of the pair's
     * last unfollow is told again too; an unfollow older than that one is stale.
     */
    public UnfollowOutcome unfollow(long authorId, long followerId, long atMillis) {
        Bytes key = key(authorId, followerId);
        byte[] value = pairs.get(key);
        if (value == null || isUnfollowed(value)) {
            if (value != null && atMillis < since(value)) return UnfollowOutcome.STALE;
            if (value == null || atMillis > since(value)) pairs.put(key, marked(UNFOLLOWED, atMillis));
            return UnfollowOutcome.UNFOLLOWED;
        }
        long since = since(value);
        // An unfollow older than the pair's follow is stale for the graph, but Redis may hold what another order of
        // these events left (a crash, a rebuild stopped midway): whatever came first, it ends as a follow then. The
        // pair remembers it, so that a follow older still, processed later, is known as stale.
        if (atMillis < since) {
            // Older than the unfollow the pair knows: that one told Redis all this one could (a floor at least as
            // high, the same re-follow), and the recent posts after the re-follow. A replay of that very unfollow is
            // told again below, as a crash may have lost what it sent.
            if (isRefollowed(value) && atMillis < unfollowedAt(value)) return UnfollowOutcome.STALE;
            if (!isRefollowed(value) || atMillis > unfollowedAt(value)) {
                long[] later = new long[laterFollows(value)];
                for (int i = 0; i < later.length; i++) later[i] = laterFollow(value, i);
                pairs.put(key, refollowed(since, atMillis, later, later.length));
            }
            return UnfollowOutcome.followedAgainAt(since);
        }
        // At the very moment of a follow, the unfollow wins, as in Redis (unfollow.lua).
        int count = laterFollows(value);
        int next = 0;
        while (next < count && laterFollow(value, next) <= atMillis) next++;
        if (next == count) {
            pairs.put(key, marked(UNFOLLOWED, atMillis));
            adjustCount(authorId, -1);
            return UnfollowOutcome.UNFOLLOWED;
        }
        long again = laterFollow(value, next);
        long[] later = new long[count - next - 1];
        for (int i = next + 1; i < count; i++) later[i - next - 1] = laterFollow(value, i);
        pairs.put(key, refollowed(again, atMillis, later, later.length));
        return UnfollowOutcome.followedAgainAt(again);
    }

    /** The unfollow before the pair's current follow, when the pair follows again and knows it; else none. */
    public long unfollowedBefore(long authorId, long followerId) {
        byte[] value = pairs.get(key(authorId, followerId));
        return value != null && isRefollowed(value) ? unfollowedAt(value) : UnreadChanges.NO_UNFOLLOW;
    }

    public long followerCount(long authorId) {
        byte[] value = counts.get(authorKey(authorId));
        return value == null ? 0 : ByteBuffer.wrap(value).getLong();
    }

    public boolean isBigV(long authorId) {
        byte[] value = counts.get(authorKey(authorId));
        return value != null && value[Long.BYTES] == 1;
    }

    /** A place in an author's walk: just after {@code followerId} of {@code slot}. */
    public record Position(int slot, long followerId) {
        /** Before every follower. */
        public static final Position START = new Position(0, 0);
        static final Position END = new Position(LAST_SLOT, Long.MAX_VALUE);
    }

    /**
     * Calls {@code action} for every current follower of the author who followed before {@code beforeMillis}, slot by
     * slot ({@link UnreadKeys#slot}), ascending ids within a slot. {@code Long.MAX_VALUE}: every current follower.
     */
    public void forEachFollower(long authorId, long beforeMillis, LongConsumer action) {
        forEachFollowerAfter(authorId, Position.START, beforeMillis, follower -> {
            action.accept(follower);
            return true;
        }, position -> { });
    }

    /**
     * Calls {@code action} for the author's followers after {@code after} who followed before {@code beforeMillis}, in
     * walk order, until it returns false. Lets a big fan-out resume where it stopped.
     *
     * @param walked told of every follower passed, whether it followed in time or not, so a cursor can move past it
     */
    public void forEachFollowerAfter(long authorId, Position after, long beforeMillis, LongPredicate action, Consumer<Position> walked) {
        if (after.equals(Position.END)) return;
        Bytes from = key(authorId, after.slot(), after.followerId());
        try (KeyValueIterator<Bytes, byte[]> followers = pairs.range(from, key(authorId, LAST_SLOT, Long.MAX_VALUE))) {
            while (followers.hasNext()) {
                KeyValue<Bytes, byte[]> pair = followers.next();
                // Past the start, which the range includes; and past any key not of this layout.
                if (pair.key.get().length != KEY_BYTES || pair.key.equals(from)) continue;
                ByteBuffer key = ByteBuffer.wrap(pair.key.get());
                long follower = key.getLong(Long.BYTES + Short.BYTES);
                walked.accept(new Position(key.getShort(Long.BYTES), follower));
                if (!isUnfollowed(pair.value) && since(pair.value) < beforeMillis && !action.test(follower)) return;
            }
        }
    }

    /** When the pair's state began: its follow, re-follow or unfollow. */
    private static long since(byte[] value) {
        return switch (value.length) {
            case 0 -> FOLLOWED_BEFORE_EVERYTHING;
            case Long.BYTES -> ByteBuffer.wrap(value).getLong(0);
            default -> ByteBuffer.wrap(value).getLong(1);
        };
    }

    private static int laterFollows(byte[] value) {
        if (value.length <= Long.BYTES) return 0;
        return (value.length - 1) / Long.BYTES - firstLaterFollow(value);
    }

    private static long laterFollow(byte[] value, int index) {
        return ByteBuffer.wrap(value).getLong(1 + Long.BYTES * (index + firstLaterFollow(value)));
    }

    /** Where the later follows start, in longs after the state byte: after the follow, and the unfollow if kept. */
    private static int firstLaterFollow(byte[] value) {
        return isRefollowed(value) ? 2 : 1;
    }

    private static boolean isRefollowed(byte[] value) {
        return value.length > Long.BYTES && value[0] == REFOLLOWED;
    }

    private static long unfollowedAt(byte[] value) {
        return ByteBuffer.wrap(value).getLong(1 + Long.BYTES);
    }

    private static boolean isUnfollowed(byte[] value) {
        return value.length == Long.BYTES + 1 && value[0] == UNFOLLOWED;
    }

    private static boolean isFollowedAgain(byte[] value) {
        return value.length > Long.BYTES && (value[0] == FOLLOWED_AGAIN || value[0] == REFOLLOWED);
    }

    private static byte[] marked(byte state, long atMillis) {
        return ByteBuffer.allocate(1 + Long.BYTES).put(state).putLong(atMillis).array();
    }

    /** The following pair's value with {@code laterMillis} among its later follows (unchanged if it is there). */
    private static byte[] withLaterFollow(byte[] value, long laterMillis) {
        long[] later = new long[laterFollows(value) + 1];
        int count = 0;
        for (int i = 0; i < later.length - 1; i++) {
            long follow = laterFollow(value, i);
            if (follow == laterMillis) return value;
            later[count++] = follow;
        }
        later[count++] = laterMillis;
        Arrays.sort(later, 0, count);
        if (isRefollowed(value)) return refollowed(since(value), unfollowedAt(value), later, count);
        return withLaterFollows(isFollowedAgain(value) ? FOLLOWED_AGAIN : FOLLOWED, since(value), later, count);
    }

    /** A following pair's value: its state, its follow and the newest {@value #MAX_LATER_FOLLOWS} of {@code later}. */
    private static byte[] withLaterFollows(byte state, long sinceMillis, long[] later, int count) {
        int from = Math.max(0, count - MAX_LATER_FOLLOWS);
        ByteBuffer result = ByteBuffer.allocate(1 + Long.BYTES * (1 + count - from)).put(state).putLong(sinceMillis);
        for (int i = from; i < count; i++) result.putLong(later[i]);
        return result.array();
    }

    /** A pair followed again at {@code sinceMillis} after an unfollow at {@code unfollowedMillis}. */
    private static byte[] refollowed(long sinceMillis, long unfollowedMillis, long[] later, int count) {
        int from = Math.max(0, count - MAX_LATER_FOLLOWS);
        ByteBuffer result = ByteBuffer.allocate(1 + Long.BYTES * (2 + count - from))
                .put(REFOLLOWED).putLong(sinceMillis).putLong(unfollowedMillis);
        for (int i = from; i < count; i++) result.putLong(later[i]);
        return result.array();
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
        return key(authorId, UnreadKeys.slot(followerId), followerId);
    }

    static Bytes key(long authorId, int slot, long followerId) {
        return Bytes.wrap(ByteBuffer.allocate(KEY_BYTES).putLong(authorId).putShort((short) slot).putLong(followerId).array());
    }

    private static Bytes authorKey(long authorId) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(authorId).array());
    }
}
