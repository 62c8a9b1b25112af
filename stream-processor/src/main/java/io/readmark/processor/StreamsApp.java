package io.readmark.processor;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.readmark.processor.commit.RedisFirstClientSupplier;
import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.commit.WriterPerThread;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * One Kafka Streams application writing to Redis: its own pipelined writers per thread, offsets committed only
 * after Redis acknowledged, a failed thread replaced (its uncommitted records are re-read and re-applied). Its Kafka
 * Streams and client metrics (consumer lag included) are published to the registry it is given.
 */
public final class StreamsApp implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StreamsApp.class);

    private final String name;
    private final WriterPerThread writers;
    private final KafkaStreams streams;
    private final KafkaStreamsMetrics metrics;
    private final CountDownLatch running = new CountDownLatch(1);
    private final AtomicLong failedThreads = new AtomicLong();

    public StreamsApp(String name, Topology topology, Properties properties, WriterPerThread writers, ThreadCommits commits,
               MeterRegistry registry) {
        this.name = name;
        this.writers = writers;
        this.streams = new KafkaStreams(topology, properties, new RedisFirstClientSupplier(writers, commits));
        this.metrics = new KafkaStreamsMetrics(streams);
        metrics.bindTo(registry);
        streams.setStateListener((now, before) -> {
            log.atInfo().addKeyValue("app", name).addKeyValue("from", before).addKeyValue("to", now).log("state changed");
            if (now == KafkaStreams.State.RUNNING) running.countDown();
        });
        streams.setUncaughtExceptionHandler(error -> {
            failedThreads.incrementAndGet();
            log.error("{}: stream thread failed; replacing it", name, error);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    }

    public void start() {
        streams.start();
    }

    boolean awaitRunning(Duration timeout) throws InterruptedException {
        return running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Stream threads that died of an exception since the start (each was replaced). */
    long failedThreads() {
        return failedThreads.get();
    }

    /** True while every one of the applications processes records. */
    static boolean allRunning(List<StreamsApp> apps) {
        return apps.stream().allMatch(app -> app.state() == KafkaStreams.State.RUNNING);
    }

    /** The applications' states, for logs and health: {@code stream processor RUNNING, fan-out worker REBALANCING}. */
    static String describe(List<StreamsApp> apps) {
        return apps.stream().map(app -> app.name + " " + app.state()).collect(Collectors.joining(", "));
    }

    /** Deletes this application's local state folder; only once closed. */
    public void deleteLocalState() {
        streams.cleanUp();
    }

    /** Leaves the consumer group on the way out, so a restarted or remaining instance takes over at once. */
    @Override
    public void close() {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        metrics.close();
        writers.close();
    }
}
