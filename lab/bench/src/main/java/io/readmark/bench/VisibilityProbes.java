package io.readmark.bench;

import io.lettuce.core.RedisFuture;
import io.readmark.client.EventPublisher;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Publish-to-visible latency of posts by normal authors, open loop: a probe post goes out every interval whether
 * or not earlier ones are visible (a stalled pipeline cannot hide its stall by slowing the probes), and a poller
 * on its own connection watches, for each probe, the ZSCORE of the post in the z of the author's highest-id
 * follower — the last one the fan-out reaches. Latency is recorded in microseconds.
 */
final class VisibilityProbes {

    /** A normal author, the follower its fan-out reaches last, and the partition its events go to. */
    record ProbeAuthor(long authorId, long lastFollower, int followers, int partition) {
    }

    /** Latencies of one run, overall and by the partition the probe's author is on (the big-V shares one). */
    record Latencies(Histogram all, Map<Integer, Histogram> byPartition) {

        /** Every sample of several runs in one. */
        static Latencies merge(List<Latencies> runs) {
            Histogram all = histogram();
            Map<Integer, Histogram> byPartition = new TreeMap<>();
            for (Latencies run : runs) {
                all.add(run.all());
                run.byPartition().forEach((partition, histogram) -> byPartition.computeIfAbsent(partition, p -> histogram()).add(histogram));
            }
            return new Latencies(all, byPartition);
        }
    }

    private static final long MIN_POLL_NANOS = 200_000;      // tight, yet not a busy spin that starves two cores
    private static final long MAX_POLL_NANOS = 10_000_000;
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

    private static final class Probe {
        final String key;
        final String member;
        final long sentNanos;
        final int partition;
        long nextPollNanos;

        Probe(String key, String member, long sentNanos, int partition) {
            this.key = key;
            this.member = member;
            this.sentNanos = sentNanos;
            this.partition = partition;
            this.nextPollNanos = sentNanos + MIN_POLL_NANOS;
        }
    }

    private final EventPublisher publisher;
    private final RedisConnections redis;
    private final UnreadKeys keys;
    private final List<ProbeAuthor> authors;
    private final AtomicLong nextBlogId;

    VisibilityProbes(EventPublisher publisher, RedisConnections redis, UnreadKeys keys, List<ProbeAuthor> authors, long firstBlogId) {
        if (authors.isEmpty()) throw new IllegalArgumentException("no probe authors");
        this.publisher = publisher;
        this.redis = redis;
        this.keys = keys;
        this.authors = List.copyOf(authors);
        this.nextBlogId = new AtomicLong(firstBlogId);
    }

    /**
     * Issues one probe every {@code interval} while {@code keepIssuing} holds (at least one), then waits until every
     * probe is visible.
     */
    Latencies run(Duration interval, BooleanSupplier keepIssuing) throws InterruptedException {
        Histogram all = histogram();
        Map<Integer, Histogram> byPartition = new TreeMap<>();
        authors.forEach(author -> byPartition.computeIfAbsent(author.partition(), p -> histogram()));
        Queue<Probe> issued = new ConcurrentLinkedQueue<>();
        AtomicLong outstanding = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread poller = Thread.ofPlatform().name("latency-poller").start(() -> {
            try {
                poll(issued, outstanding, all, byPartition);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        });
        long next = System.nanoTime();
        int n = 0;
        do {
            ProbeAuthor author = authors.get(n++ % authors.size());
            long blogId = nextBlogId.getAndIncrement();
            long sent = System.nanoTime();
            Probe probe = new Probe(keys.z(author.lastFollower()), Long.toString(blogId), sent,
                    author.partition());
            outstanding.incrementAndGet();
            issued.add(probe);
            publisher.blogPublishedAsync("probe-" + blogId, blogId, author.authorId(), Instant.now())
                    .whenComplete((ack, error) -> {
                        if (error != null) failure.compareAndSet(null, error);
                    });
            next += interval.toNanos();
            LockSupport.parkNanos(next - System.nanoTime());
        } while (keepIssuing.getAsBoolean());
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        while (outstanding.get() > 0 && failure.get() == null && System.nanoTime() < deadline) Thread.sleep(5);
        poller.interrupt();
        poller.join();
        if (failure.get() != null) throw new IllegalStateException("latency probes failed", failure.get());
        if (outstanding.get() > 0) throw new IllegalStateException(outstanding.get() + " probe posts never became visible");
        return new Latencies(all, byPartition);
    }

    private void poll(Queue<Probe> issued, AtomicLong outstanding, Histogram all, Map<Integer, Histogram> byPartition) {
        List<Probe> watching = new ArrayList<>();
        try (RedisConnections.Connection connection = redis.open()) {
            connection.stateful().setAutoFlushCommands(false);
            while (!Thread.currentThread().isInterrupted()) {
                for (Probe probe; (probe = issued.poll()) != null; ) watching.add(probe);
                long now = System.nanoTime();
                List<Probe> due = new ArrayList<>();
                List<RedisFuture<Double>> replies = new ArrayList<>();
                for (Probe probe : watching) {
                    if (probe.nextPollNanos <= now) {
                        due.add(probe);
                        replies.add(connection.async().zscore(probe.key, probe.member));
                    }
                }
                if (!due.isEmpty()) {
                    connection.stateful().flushCommands();
                    for (int i = 0; i < due.size(); i++) {
                        Probe probe = due.get(i);
                        Double score = replies.get(i).get(30, TimeUnit.SECONDS);
                        long answered = System.nanoTime();
                        if (score != null) {
                            // The reply time is an upper bound of when it became visible; the poll interval bounds the error.
                            long micros = Math.clamp((answered - probe.sentNanos) / 1_000, 1, all.getHighestTrackableValue());
                            all.recordValue(micros);
                            byPartition.get(probe.partition).recordValue(micros);
                            watching.remove(probe);
                            outstanding.decrementAndGet();
                        } else {
                            // Poll young probes tightly and old ones less often: resolution stays within ~5 % of the age.
                            long age = answered - probe.sentNanos;
                            probe.nextPollNanos = answered + Math.clamp(age / 20, MIN_POLL_NANOS, MAX_POLL_NANOS);
                        }
                    }
                }
                LockSupport.parkNanos(MIN_POLL_NANOS / 2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException("latency poller failed", e);
        }
    }

    private static Histogram histogram() {
        return new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
    }
}
