package io.readmark.reliability;

import io.readmark.infra.PrometheusText;
import io.readmark.processor.UnreadTopology;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
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
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Waits until the pipeline has applied everything produced: the main application has committed every event topic
 * and its internal author topic up to their ends, no processor has big-V followers left to put into chunks, and the fan-out worker has committed the
 * fan-out topic up to its end. Offsets are committed only after Redis acknowledged, so Redis then holds it all.
 * Chunks are emitted on a timer after the publish's offset is committed, so the state must hold, with the fan-out
 * topic's end unchanged, for a few seconds on end.
 */
public final class PipelineDrain implements AutoCloseable {

    private static final Duration STABLE_FOR = Duration.ofSeconds(3);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final String PENDING_FOLLOWERS = "readmark_fanout_pending_followers";

    private final Admin admin;
    private final RunNames names;

    public PipelineDrain(String bootstrapServers, RunNames names) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, "readmark-drain"));
        this.names = names;
    }

    /** What one look at the pipeline saw. */
    private record Observation(boolean caughtUp, Map<TopicPartition, Long> fanoutEnds, String lagging) {
    }

    /**
     * Returns how long it waited.
     *
     * @param processors the processor processes running now, asked for their big-V backlog
     * @throws IllegalStateException if the pipeline has not caught up within {@code timeout}
     */
    public Duration await(Duration timeout, Supplier<? extends Collection<ProcessorProcess>> processors) {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        Observation last = null;
        long stableSince = -1;
        while (true) {
            Observation now = observe(processors.get());
            if (!now.caughtUp()) {
                stableSince = -1;
            } else if (last == null || !last.caughtUp() || !last.fanoutEnds().equals(now.fanoutEnds())) {
                stableSince = System.nanoTime();
            }
            last = now;
            if (stableSince >= 0 && System.nanoTime() - stableSince >= STABLE_FOR.toNanos()) {
                return Duration.ofNanos(System.nanoTime() - started);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pipeline did not catch up within " + timeout.toSeconds() + " s: "
                        + (now.caughtUp() ? "the fan-out topic kept growing" : now.lagging()));
            }
            Poll.pause(POLL);
        }
    }

    private Observation observe(Collection<ProcessorProcess> processors) {
        Topics topics = names.topics();
        long pending = 0;
        for (ProcessorProcess processor : processors) {
            if (!processor.isAlive()) return new Observation(false, Map.of(), processor.name() + " is not running");
            try {
                pending += (long) PrometheusText.sum(processor.get("/metrics").body(), PENDING_FOLLOWERS);
            } catch (RuntimeException e) {
                return new Observation(false, Map.of(), processor.name() + " did not serve its metrics: " + e.getMessage());
            }
        }
        Map<TopicPartition, Long> fanoutEnds = endOffsets(List.of(topics.fanoutChunks().name()));
        String mainLag = lag(names.applicationId(), endOffsets(List.of(topics.blogEvents().name(),
                topics.followEvents().name(), topics.readEvents().name(), UnreadTopology.authorEventsTopic(names.applicationId()))));
        String fanoutLag = lag(names.fanoutApplicationId(), fanoutEnds);
        String lagging = Stream.of(mainLag, fanoutLag, pending == 0 ? "" : pending + " big-V followers not in chunks yet")
                .filter(text -> !text.isEmpty()).collect(Collectors.joining("; "));
        return new Observation(lagging.isEmpty(), fanoutEnds, lagging);
    }

    /** Empty when the group has committed every partition up to its end; else what lags. */
    private String lag(String group, Map<TopicPartition, Long> ends) {
        Map<TopicPartition, OffsetAndMetadata> committed = get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        long behind = 0;
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            OffsetAndMetadata offset = committed.get(end.getKey());
            behind += end.getValue() - (offset == null ? 0 : offset.offset());
        }
        return behind == 0 ? "" : group + " is " + behind + " records behind";
    }

    private Map<TopicPartition, Long> endOffsets(List<String> topicNames) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        get(admin.describeTopics(topicNames).allTopicNames()).forEach((topic, description) -> description.partitions()
                .forEach(partition -> request.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest())));
        Map<TopicPartition, Long> ends = new HashMap<>();
        get(admin.listOffsets(request).all()).forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read offsets from Kafka", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
