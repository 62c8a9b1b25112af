package io.readmark.processor.graph;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * Tombstones of deleted blogs with their delete time, keyed {@code authorId ‖ blogId}, so a publish that arrives after
 * its delete is not delivered to anyone — not even to users who started following in between — and a follow processed
 * after either sends the delete instead. Kept for a retention period.
 */
public final class DeletedBlogs {

    public static final String STORE_NAME = "deleted-blogs";
    /** {@link #deletedAt} of a blog with no tombstone. */
    public static final long NOT_DELETED = Long.MIN_VALUE;

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

    /** When the blog was deleted, or {@link #NOT_DELETED}. */
    public long deletedAt(long authorId, long blogId) {
        byte[] value = store.get(key(authorId, blogId));
        return value == null ? NOT_DELETED : ByteBuffer.wrap(value).getLong();
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
