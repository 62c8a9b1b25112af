package io.readmark.processor.graph;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/** The retention sweep of the processor's time-bounded stores (tombstones, recent posts). */
final class StoreSweep {

    private StoreSweep() {
    }

    /** Deletes every entry {@code expired} accepts (key bytes, value bytes); returns how many. */
    static int deleteWhere(KeyValueStore<Bytes, byte[]> store, BiPredicate<byte[], byte[]> expired) {
        // Collected first: a RocksDB iterator must not see the deletes it causes.
        List<Bytes> doomed = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<Bytes, byte[]> entry = all.next();
                if (expired.test(entry.key.get(), entry.value)) doomed.add(entry.key);
            }
        }
        doomed.forEach(store::delete);
        return doomed.size();
    }
}
