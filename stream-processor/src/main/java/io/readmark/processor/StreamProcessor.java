package io.readmark.processor;

import io.micrometer.core.instrument.MeterRegistry;
import io.readmark.common.config.Settings;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.metrics.ServiceMetrics;
import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.commit.ThreadWriters;
import io.readmark.processor.fanout.FanoutProgress;
import io.readmark.processor.fanout.FanoutWorkerTopology;
import io.readmark.processor.fanout.RateLimiter;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.schemas.Topics;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;

/**
 * The stream processor deployable: checks its topics, connects Redis, runs the main topology and/or the big-V
 * fan-out worker (each its own Kafka Streams application), serves health and metrics over HTTP, stops cleanly.
 */
public final class StreamProcessor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StreamProcessor.class);
    private static final String NAME = "stream-processor";

    private final ServiceMetrics metrics;
    private final RedisConnections redis;
    private final List<StreamsApp> apps;
    private final JsonHttpServer server;

    private StreamProcessor(ServiceMetrics metrics, RedisConnections redis, List<StreamsApp> apps, JsonHttpServer server) {
        this.metrics = metrics;
        this.redis = redis;
        this.apps = apps;
        this.server = server;
    }

    /**
     * Starts the applications and the HTTP server.
     *
     * @throws UncheckedIOException if the HTTP port cannot be bound
     */
    public static StreamProcessor start(ProcessorConfig config) {
        if (config.runMain()) requireTopics(config);
        log.atInfo().addKeyValue("applicationId", config.applicationId()).addKeyValue("main", config.runMain())
                .addKeyValue("fanout", config.runFanoutWorker()).log("stream processor starting");
        ServiceMetrics metrics = new ServiceMetrics(NAME);
        RedisConnections redis = null;
        List<StreamsApp> apps = new ArrayList<>();
        try {
            redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), false, metrics.registry());
            apps.addAll(createApps(config, redis, metrics.registry()));
            HealthRoutes health = new HealthRoutes(apps);
            JsonHttpServer server = JsonHttpServer.management(NAME, metrics.registry(), health::live, health::ready)
                    .start(config.httpHost(), config.httpPort());
            apps.forEach(StreamsApp::start);
            return new StreamProcessor(metrics, redis, apps, server);
        } catch (IOException e) {
            release(apps, redis, metrics);
            throw new UncheckedIOException(NAME + " cannot listen on " + config.httpHost() + ":" + config.httpPort(), e);
        } catch (RuntimeException e) {
            release(apps, redis, metrics);
            throw e;
        }
    }

    /** Releases what a failed start had opened (the applications were never started). */
    private static void release(List<StreamsApp> apps, RedisConnections redis, ServiceMetrics metrics) {
        apps.forEach(StreamsApp::close);
        if (redis != null) redis.close();
        metrics.close();
    }

    private static List<StreamsApp> createApps(ProcessorConfig config, RedisConnections redis, MeterRegistry registry) {
        UnreadKeys keys = new UnreadKeys(config.redisPrefix());
        ProcessorMeters meters = new ProcessorMeters(registry);
        List<StreamsApp> apps = new ArrayList<>();
        if (config.runMain()) {
            ThreadWriters writers = new ThreadWriters(redis, keys, config.limits(), config.maxPendingWrites(),
                    meters.deliveries("main"));
            ThreadCommits commits = new ThreadCommits();
            apps.add(new StreamsApp("stream processor",
                    UnreadTopology.build(config.topics(), config.authorPartitions(), writers, commits, config.fanout(), meters),
                    config.streamsProperties(), writers, commits, registry));
        }
        if (config.runFanoutWorker()) {
            ThreadWriters writers = new ThreadWriters(redis, keys, config.limits(), config.maxPendingWrites(),
                    meters.deliveries("fanout"));
            RateLimiter rate = new RateLimiter(config.fanoutDeliveriesPerSecond());
            apps.add(new StreamsApp("fan-out worker",
                    FanoutWorkerTopology.build(config.topics(), writers, rate, new FanoutProgress(), meters),
                    config.fanoutWorkerProperties(), writers, new ThreadCommits(), registry));
        }
        return apps;
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
        return StreamsApp.allRunning(apps);
    }

    /**
     * Stream threads that died of an exception since the start. Each is replaced and its uncommitted records are
     * re-read, so a record that kills every thread that reads it shows here as a number that keeps growing.
     */
    public long failedStreamThreads() {
        return apps.stream().mapToLong(StreamsApp::failedThreads).sum();
    }

    /** The states of the applications, for logs and health. */
    public String state() {
        return StreamsApp.describe(apps);
    }

    /** The bound HTTP port of health and metrics (the real one when the configuration asked for 0). */
    public int httpPort() {
        return server.port();
    }

    /**
     * The event topics exist, and the author path's internal topics, if an earlier run created them, have the
     * partitions {@code PROCESSOR_AUTHOR_PARTITIONS} asks for: the follower graph is spread over them, so another count
     * would look for an author's followers in the wrong task.
     */
    public static void requireTopics(ProcessorConfig config) {
        Topics topics = config.topics();
        List<String> inputs = List.of(topics.followEvents().name(), topics.blogEvents().name(), topics.readEvents().name(),
                topics.noticeEvents().name());
        List<String> internal = List.of(AuthorPartitions.topic(config.applicationId()),
                config.applicationId() + "-" + FollowerGraph.STORE_NAME + "-changelog");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers()))) {
            Set<String> existing = admin.listTopics().names().get();
            List<String> missing = inputs.stream().filter(topic -> !existing.contains(topic)).toList();
            if (!missing.isEmpty()) throw new IllegalStateException("the event topics " + missing + " do not exist; create them first");
            List<String> present = internal.stream().filter(existing::contains).toList();
            for (TopicDescription topic : admin.describeTopics(present).allTopicNames().get().values()) {
                if (topic.partitions().size() != config.authorPartitions()) {
                    throw new IllegalStateException("PROCESSOR_AUTHOR_PARTITIONS is " + config.authorPartitions() + " but "
                            + topic.name() + " has " + topic.partitions().size() + " partitions: set it to "
                            + topic.partitions().size() + ", or rebuild the follower graph under a new PROCESSOR_APPLICATION_ID "
                            + "(README, \"Changing the author partitions\")");
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe the topics: " + e.getCause().getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topics", e);
        }
    }

    /** Applications first, so readiness turns 503 while they drain; the HTTP server and metrics last. */
    @Override
    public void close() {
        apps.forEach(StreamsApp::close);
        server.close();
        redis.close();
        metrics.close();
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
