package io.readmark.processor.graph;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * The posts processed lately (deleted ones too), keyed {@code authorId ‖ publishedAt ‖ blogId} (big-endian longs), so
 * one author's posts after a moment are one ordered range. A follow processed after posts published after it (Kafka
 * Streams can hand over a blog partition's backlog before the follow partition's, e.g. after a long pause) gives the
 * new follower those posts from here, or their deletes. Kept for a retention period.
 */
public final class RecentPosts {

    public static final String STORE_NAME = "recent-posts";
    private static final byte[] PRESENT = new byte[0];

    /** Receives one post. */
    @FunctionalInterface
    public interface PostConsumer {
        void accept(long blogId, long publishedAtMillis);
    }

    private final KeyValueStore<Bytes, byte[]> store;

    public RecentPosts(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE_NAME), Serdes.Bytes(), Serdes.ByteArray());
    }

    public void remember(long authorId, long blogId, long publishedAtMillis) {
        store.put(key(authorId, publishedAtMillis, blogId), PRESENT);
    }

    /** The author's remembered posts published after {@code afterMillis}, oldest first. */
    public void forEachPublishedAfter(long authorId, long afterMillis, PostConsumer action) {
        if (afterMillis == Long.MAX_VALUE) return;
        // Keys sort as their bytes, which is numeric order for the non-negative times of posts after 1970.
        long from = Math.max(0, afterMillis + 1);
        try (KeyValueIterator<Bytes, byte[]> posts = store.range(key(authorId, from, 0), key(authorId, Long.MAX_VALUE, Long.MAX_VALUE))) {
            while (posts.hasNext()) {
                ByteBuffer key = ByteBuffer.wrap(posts.next().key.get());
                action.accept(key.getLong(2 * Long.BYTES), key.getLong(Long.BYTES));
            }
        }
    }

    /** Forgets posts published more than {@code retention} before {@code nowMillis}. */
    public int forgetOlderThan(Duration retention, long nowMillis) {
        long cutoff = nowMillis - retention.toMillis();
        return StoreSweep.deleteWhere(store, (key, value) -> ByteBuffer.wrap(key).getLong(Long.BYTES) < cutoff);
    }

    private static Bytes key(long authorId, long publishedAtMillis, long blogId) {
        return Bytes.wrap(ByteBuffer.allocate(3 * Long.BYTES).putLong(authorId).putLong(publishedAtMillis).putLong(blogId).array());
    }
}
