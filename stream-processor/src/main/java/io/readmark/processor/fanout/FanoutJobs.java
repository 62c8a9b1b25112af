package io.readmark.processor.fanout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.readmark.schemas.Json;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The big-V fan-outs in progress, in a changelogged store so they survive a crash or a move to another instance. */
public final class FanoutJobs {

    public static final String STORE_NAME = "fanout-jobs";

    private final KeyValueStore<String, byte[]> store;

    public FanoutJobs(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    public static StoreBuilder<KeyValueStore<String, byte[]>> storeBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE_NAME), Serdes.String(), Serdes.ByteArray());
    }

    void save(FanoutJob job) {
        try {
            store.put(job.jobId(), Json.MAPPER.writeValueAsBytes(job));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot store fan-out job " + job.jobId(), e);
        }
    }

    void delete(String jobId) {
        store.delete(jobId);
    }

    public List<FanoutJob> all() {
        List<FanoutJob> jobs = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> entries = store.all()) {
            while (entries.hasNext()) jobs.add(read(entries.next().value));
        }
        return jobs;
    }

    /**
     * A job saved before the walk went slot by slot has no {@code durableSlot}: its cursor was the last follower id
     * covered, in id order. Read as slot 0 it skips only slot 0's followers up to that id, which that walk covered;
     * the rest of the walk is sent again, harmlessly.
     */
    private static FanoutJob read(byte[] json) {
        try {
            ObjectNode job = (ObjectNode) Json.MAPPER.readTree(json);
            if (!job.has("durableSlot")) job.put("durableSlot", 0);
            return Json.MAPPER.treeToValue(job, FanoutJob.class);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable fan-out job in " + STORE_NAME, e);
        }
    }
}
