package io.readmark.processor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.commit.ThreadChanges;
import io.readmark.processor.commit.WriterPerThread;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadReader;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * A TopologyTestDriver whose topology writes to the real test Redis under a key prefix of its own, one per test.
 * The driver runs the processors on the test's thread, so that thread's writers are the ones to await.
 */
final class TopologyFixture implements AutoCloseable {

    /** One connection for the whole test JVM; it ends with the JVM. */
    private static final RedisConnections REDIS =
            RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false);

    final UnreadKeys keys;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final ProcessorMeters meters = new ProcessorMeters(registry);
    final WriterPerThread writers;
    /** What the topology writes, counted on its way to {@link #writers}. */
    final CountingChanges changes;
    final TopologyTestDriver driver;

    TopologyFixture(BiFunction<ThreadChanges, ProcessorMeters, Topology> topology) {
        this(new UnreadKeys("topology-" + UUID.randomUUID()), topology);
    }

    /** A topology with state stores of its own that writes the keys another fixture wrote, as a second run would. */
    TopologyFixture(UnreadKeys keys, BiFunction<ThreadChanges, ProcessorMeters, Topology> topology) {
        this.keys = keys;
        writers = new WriterPerThread(REDIS, keys, new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000), 1000, meters.deliveries("main"));
        changes = new CountingChanges(writers);
        driver = TestDrivers.start(topology.apply(changes, meters));
    }

    /** The user's counts once Redis acknowledged everything the topology wrote so far. */
    UnreadCounts counts(long userId) {
        writers.awaitCurrentThread();
        return new UnreadReader(REDIS.shared(), keys).counts(userId);
    }

    /** Returns once Redis acknowledged everything the topology wrote so far. */
    void awaitWrites() {
        writers.awaitCurrentThread();
    }

    long unread(long userId) {
        return counts(userId).total();
    }

    /** The blog ids unread for the user from the author, oldest first, once Redis acknowledged everything. */
    List<String> unreadBlogs(long userId, long authorId) {
        writers.awaitCurrentThread();
        return new UnreadReader(REDIS.shared(), keys).page(userId, authorId, 1_000, null).items().reversed().stream()
                .map(item -> Long.toString(item.blogId())).toList();
    }

    /** A metric of the driver, summed over its tags. */
    double metric(String name) {
        return driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    /** A counter or gauge of this topology's {@link ProcessorMeters}, summed over the series with these tags. */
    double meter(String name, String... tags) {
        return registry.find(name).tags(tags).meters().stream()
                .mapToDouble(meter -> meter.measure().iterator().next().getValue()).sum();
    }

    @Override
    public void close() {
        driver.close();
        writers.close();
    }
}
