package io.readmark.processor;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.util.function.LongConsumer;

/**
 * Who follows whom, in a Kafka Streams store keyed {@code authorId ‖ followerId} (two big-endian longs), so one
 * author's followers are one contiguous, ordered range. Lives in the task of the author's partition, next to
 * the author's blog events.
 */
final class FollowerGraph {

    static final String STORE_NAME = "followers";
    private static final byte[] PRESENT = new byte[0];

    private final KeyValueStore<Bytes, byte[]> store;

    FollowerGraph(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    static StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE_NAME), Serdes.Bytes(), Serdes.ByteArray());
    }

    void follow(long authorId, long followerId) {
        store.put(key(authorId, followerId), PRESENT);
    }

    void unfollow(long authorId, long followerId) {
        store.delete(key(authorId, followerId));
    }

    /** Calls {@code action} for every current follower of the author, in ascending follower id. */
    void forEachFollower(long authorId, LongConsumer action) {
        try (KeyValueIterator<Bytes, byte[]> followers = store.range(key(authorId, 0), key(authorId, Long.MAX_VALUE))) {
            while (followers.hasNext()) {
                action.accept(ByteBuffer.wrap(followers.next().key.get()).getLong(Long.BYTES));
            }
        }
    }

    private static Bytes key(long authorId, long followerId) {
        return Bytes.wrap(ByteBuffer.allocate(2 * Long.BYTES).putLong(authorId).putLong(followerId).array());
    }
}
