package io.readmark.processor;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** Kafka Streams' in-memory key-value stores, initialised without a topology: state for unit tests of the stores' users. */
public final class InMemoryStores {

    private InMemoryStores() {
    }

    public static KeyValueStore<Bytes, byte[]> bytes(String name) {
        return keyValue(name, Serdes.Bytes());
    }

    public static KeyValueStore<String, byte[]> byName(String name) {
        return keyValue(name, Serdes.String());
    }

    private static <K> KeyValueStore<K, byte[]> keyValue(String name, Serde<K> keys) {
        KeyValueStore<K, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), keys, Serdes.ByteArray())
                .withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }
}
