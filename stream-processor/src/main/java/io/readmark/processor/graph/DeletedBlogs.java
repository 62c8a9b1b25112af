package io.readmark.processor.graph;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * Tombstones of deleted blogs, keyed {@code authorId ‖ blogId}, so a publish that arrives after its delete is not
 * fanned out at all — not even to users who started following in between. Kept for a retention period.
 */
public final class DeletedBlogs {

    public static final String STORE_NAME = "deleted-blogs";

    private final KeyValueStore<Bytes, byte[]> store;

    public DeletedBlogs(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE_NAME), Serdes.Bytes(), Serdes.ByteArray());
    }

    public void remember(long authorId, long blogId, long deletedAtMillis) {
        store.put(key(authorId, blogId), ByteBuffer.allocate(Long.BYTES).putLong(deletedAtMillis).array());
    }

    public boolean isDeleted(long authorId, long blogId) {
        return store.get(key(authorId, blogId)) != null;
    }

    /** Forgets tombstones of blogs deleted more than {@code retention} before {@code nowMillis}. */
    public int forgetOlderThan(Duration retention, long nowMillis) {
        long cutoff = nowMillis - retention.toMillis();
        return StoreSweep.deleteWhere(store, (key, value) -> ByteBuffer.wrap(value).getLong() < cutoff);
    }

    private static Bytes key(long authorId, long blogId) {
        return Bytes.wrap(ByteBuffer.allocate(2 * Long.BYTES).putLong(authorId).putLong(blogId).array());
    }
}
