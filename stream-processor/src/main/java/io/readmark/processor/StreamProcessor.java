package io.readmark.processor;

import io.readmark.common.config.Settings;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** The stream processor deployable: checks its topics, connects Redis, runs the topology, stops cleanly. */
public final class StreamProcessor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StreamProcessor.class);

    private final RedisConnections redis;
    private final ThreadWriters writers;
    private final KafkaStreams streams;
    private final CountDownLatch running = new CountDownLatch(1);

    private StreamProcessor(RedisConnections redis, ThreadWriters writers, KafkaStreams streams) {
        this.redis = redis;
        this.writers = writers;
        this.streams = streams;
        streams.setStateListener((now, before) -> {
            log.info("stream processor {} -> {}", before, now);
            if (now == KafkaStreams.State.RUNNING) running.countDown();
        });
    }

    public static StreamProcessor start(ProcessorConfig config) {
        requireCoPartitioned(config);
        RedisConnections redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), false);
        ThreadWriters writers = new ThreadWriters(redis, new UnreadKeys(config.redisPrefix()), config.limits(), config.maxPendingWrites());
        KafkaStreams streams = new KafkaStreams(UnreadTopology.build(config.topics(), writers, config.tombstoneRetention()), config.streamsProperties(),
                new RedisFirstClientSupplier(writers));
        streams.setUncaughtExceptionHandler(error -> {
            // Offsets were not committed past the failure, so a fresh thread re-reads and re-applies idempotently.
            log.error("stream thread failed; replacing it", error);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        StreamProcessor processor = new StreamProcessor(redis, writers, streams);
        streams.start();
        return processor;
    }

    /** Waits until Kafka Streams first reports RUNNING; false if it did not within the timeout. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        return running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * Blog and follow events meet in one task per partition; with different partition counts an author's follows
     * and posts would land in different tasks and fan-out would silently miss followers.
     */
    private static void requireCoPartitioned(ProcessorConfig config) {
        String blog = config.topics().blogEvents().name();
        String follow = config.topics().followEvents().name();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers()))) {
            Map<String, TopicDescription> topics = admin.describeTopics(List.of(blog, follow)).allTopicNames().get();
            int blogPartitions = topics.get(blog).partitions().size();
            int followPartitions = topics.get(follow).partitions().size();
            if (blogPartitions != followPartitions) {
                throw new IllegalStateException(blog + " has " + blogPartitions + " partitions but " + follow + " has "
                        + followPartitions + "; they must be equal (both keyed by authorId)");
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe topics " + blog + " and " + follow + ": " + e.getCause().getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topics", e);
        }
    }

    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
        writers.close();
        redis.close();
    }

    public static void main(String[] args) throws InterruptedException {
        StreamProcessor processor = start(ProcessorConfig.from(Settings.fromEnvironment()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            processor.close();
            stopped.countDown();
        }, "readmark-processor-shutdown"));
        stopped.await();
    }
}
