package io.readmark.processor.commit;

import io.readmark.processor.UnreadTopology;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether a processor application has applied everything its input topics held: it commits an offset only after Redis
 * acknowledged the writes of the records before it, and an input offset only after what those records forwarded is on
 * its internal author topic. So the inputs are checked first, then the internal topic up to its end of that moment.
 */
public final class CaughtUp {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final long ADMIN_TIMEOUT_SECONDS = 30;

    private CaughtUp() {
    }

    /**
     * Waits until the application has committed {@code inputTopics}, then its internal author topic, up to their ends.
     *
     * @throws IllegalStateException if that did not happen within {@code timeout}
     */
    public static void await(Admin admin, String applicationId, Collection<String> inputTopics, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        awaitCommitted(admin, applicationId, inputTopics, deadline);
        awaitCommitted(admin, applicationId, List.of(UnreadTopology.authorEventsTopic(applicationId)), deadline);
    }

    private static void awaitCommitted(Admin admin, String groupId, Collection<String> topics, long deadline)
            throws InterruptedException {
        while (!committedToEnd(admin, groupId, topics)) {
            if (System.nanoTime() > deadline) throw new IllegalStateException(groupId + " did not catch up with " + topics);
            Thread.sleep(POLL);
        }
    }

    /** True if the group has committed every non-empty partition of the topics up to its end offset now. */
    public static boolean committedToEnd(Admin admin, String groupId, Collection<String> topics) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        get(admin.describeTopics(topics).allTopicNames()).forEach((topic, description) -> description.partitions()
                .forEach(partition -> latest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest())));
        Map<TopicPartition, OffsetAndMetadata> committed = get(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
        return get(admin.listOffsets(latest).all()).entrySet().stream().allMatch(end -> {
            OffsetAndMetadata offset = committed.get(end.getKey());
            return end.getValue().offset() == 0 || offset != null && offset.offset() >= end.getValue().offset();
        });
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read offsets from Kafka: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading offsets", e);
        }
    }
}
