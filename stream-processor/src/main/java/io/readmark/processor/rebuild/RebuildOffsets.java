package io.readmark.processor.rebuild;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The records a rebuild pass replays: per partition of its topics, from the earliest retained offset to the end
 * offset when the rebuild started. Records produced later are applied too (the pass does not stop at the end
 * offsets), but the pass is done once its committed offsets reach these ends.
 */
record RebuildOffsets(Map<TopicPartition, Long> start, Map<TopicPartition, Long> end) {

    private static final long TIMEOUT_SECONDS = 30;

    static RebuildOffsets capture(Admin admin, List<String> topics) throws InterruptedException {
        try {
            Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            described.values().forEach(topic -> topic.partitions().forEach(partition -> {
                TopicPartition tp = new TopicPartition(topic.name(), partition.partition());
                earliest.put(tp, OffsetSpec.earliest());
                latest.put(tp, OffsetSpec.latest());
            }));
            return new RebuildOffsets(offsets(admin.listOffsets(earliest)), offsets(admin.listOffsets(latest)));
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the offsets of " + topics + ": " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + TIMEOUT_SECONDS + " s for the offsets of " + topics, e);
        }
    }

    private static Map<TopicPartition, Long> offsets(ListOffsetsResult result)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    /** Records to replay. */
    long total() {
        return end.entrySet().stream().mapToLong(e -> e.getValue() - start.get(e.getKey())).sum();
    }

    /** Records of the captured range at or below the committed offsets (each counted once, none beyond the end). */
    long applied(Map<TopicPartition, OffsetAndMetadata> committed) {
        long applied = 0;
        for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
            OffsetAndMetadata offset = committed.get(partition.getKey());
            if (offset == null) continue;
            long from = start.get(partition.getKey());
            applied += Math.max(0, Math.min(offset.offset(), partition.getValue()) - from);
        }
        return applied;
    }

    /** True once every partition's committed offset reached its captured end (an empty partition has nothing to do). */
    boolean reached(Map<TopicPartition, OffsetAndMetadata> committed) {
        return end.entrySet().stream().allMatch(partition -> {
            if (partition.getValue() <= start.get(partition.getKey())) return true;
            OffsetAndMetadata offset = committed.get(partition.getKey());
            return offset != null && offset.offset() >= partition.getValue();
        });
    }
}
