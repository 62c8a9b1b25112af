package io.readmark.processor;

import io.readmark.common.config.Settings;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

/**
 * The stream processor deployable: checks its topics, connects Redis, runs the main topology and/or the big-V
 * fan-out worker (each its own Kafka Streams application), stops cleanly.
 */
public final class StreamProcessor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StreamProcessor.class);

    private final RedisConnections redis;
    private final List<StreamsApp> apps;

    private StreamProcessor(RedisConnections redis, List<StreamsApp> apps) {
        this.redis = redis;
        this.apps = apps;
    }

    public static StreamProcessor start(ProcessorConfig config) {
        if (config.runMain()) requireCoPartitioned(config);
        RedisConnections redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), false);
        UnreadKeys keys = new UnreadKeys(config.redisPrefix());
        List<StreamsApp> apps = new ArrayList<>();
        if (config.runMain()) {
            ThreadWriters writers = new ThreadWriters(redis, keys, config.limits(), config.maxPendingWrites());
            ThreadCommits commits = new ThreadCommits();
            apps.add(new StreamsApp("stream processor",
                    UnreadTopology.build(config.topics(), writers, commits, config.fanout()),
                    config.streamsProperties(), writers, commits));
        }
        if (config.runFanoutWorker()) {
            ThreadWriters writers = new ThreadWriters(redis, keys, config.limits(), config.maxPendingWrites());
            RateLimiter rate = new RateLimiter(config.fanoutDeliveriesPerSecond());
            apps.add(new StreamsApp("fan-out worker",
                    FanoutWorkerTopology.build(config.topics(), writers, rate, new FanoutProgress()),
                    config.fanoutWorkerProperties(), writers, new ThreadCommits()));
        }
        apps.forEach(StreamsApp::start);
        return new StreamProcessor(redis, apps);
    }

    /** Waits until every application first reports RUNNING; false if one did not within the timeout. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (StreamsApp app : apps) {
            if (!app.awaitRunning(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) return false;
        }
        return true;
    }

    public boolean isRunning() {
        return apps.stream().allMatch(app -> app.state() == KafkaStreams.State.RUNNING);
    }

    /** The states of the applications, for logs and health. */
    public String state() {
        return apps.stream().map(app -> app.name() + " " + app.state()).collect(Collectors.joining(", "));
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
        apps.forEach(StreamsApp::close);
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
