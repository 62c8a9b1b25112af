package io.readmark.bench;

import io.readmark.client.EventPublisher;
import io.readmark.processor.commit.CaughtUp;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Loads follows the only way the processor learns them, as {@code Followed} events on follow-events, and returns
 * once the processor has committed past every one of them, on follow-events and on its internal author topic. Offsets are committed only after the processor applied
 * the records, so the committed offset reaching the end offset is proof the graph is loaded, not a guess.
 */
final class GraphLoader {

    /** Receives (authorId, followerId) pairs. */
    interface EdgeSink {
        void follow(long authorId, long followerId);
    }

    /** Produces every edge into the sink. */
    interface Edges {
        void forEach(EdgeSink sink);
    }

    private static final int IN_FLIGHT = 20_000;
    private static final Instant FOLLOWED_AT = Instant.parse("2025-12-01T00:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final EventPublisher publisher;
    private final Admin admin;
    private final String groupId;
    private final String topic;

    GraphLoader(EventPublisher publisher, Admin admin, String groupId) {
        this.publisher = publisher;
        this.admin = admin;
        this.groupId = groupId;
        this.topic = publisher.topics().followEvents().name();
    }

    /** Every follow of the platform graph, author by author; returns how long it all took. */
    Duration load(PowerLawGraph graph, PrintStream err) throws Exception {
        return load("graph", graph.edges(), sink -> {
            for (int author = 1; author <= graph.authors(); author++) {
                int a = author;
                graph.forEachFollower(author, follower -> sink.follow(a, follower));
            }
        }, err);
    }

    /** Publishes {@code count} follows and waits until the processor committed them; returns how long it all took. */
    Duration load(String label, long count, Edges edges, PrintStream err) throws Exception {
        long start = System.nanoTime();
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicLong sent = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (ProgressBar bar = new ProgressBar(err, label, count, "follows sent")) {
            edges.forEach((author, follower) -> {
                inFlight.acquireUninterruptibly();
                publisher.followedAsync("f-" + author + "-" + follower, follower, author, FOLLOWED_AT).whenComplete((ack, error) -> {
                    if (error != null) failure.compareAndSet(null, error);
                    inFlight.release();
                });
                bar.update(sent.incrementAndGet());
            });
            inFlight.acquire(IN_FLIGHT);
        }
        if (failure.get() != null) throw new IllegalStateException("publishing follows failed", failure.get());
        Map<TopicPartition, Long> end = endOffsets();
        long target = end.values().stream().mapToLong(Long::longValue).sum();
        try (ProgressBar bar = new ProgressBar(err, label, target, "follow records applied")) {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (true) {
                Map<TopicPartition, Long> committed = committedOffsets();
                long applied = end.keySet().stream().mapToLong(tp -> Math.min(committed.getOrDefault(tp, 0L), end.get(tp))).sum();
                bar.update(applied);
                if (applied >= target) break;
                if (System.nanoTime() > deadline) throw new IllegalStateException("follows not applied within " + TIMEOUT);
                Thread.sleep(100);
            }
        }
        // The follows are on the processor's internal author topic now; the graph has them once that is applied too.
        CaughtUp.await(admin, groupId, List.of(topic), TIMEOUT);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private Map<TopicPartition, Long> endOffsets() throws Exception {
        Map<TopicPartition, OffsetSpec> latest = get(admin.describeTopics(List.of(topic)).allTopicNames())
                .get(topic).partitions().stream()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
        return get(admin.listOffsets(latest).all()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private Map<TopicPartition, Long> committedOffsets() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed =
                get(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
        return committed.entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset(), (a, b) -> a));
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) throws Exception {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka admin call timed out", e);
        }
    }
}
