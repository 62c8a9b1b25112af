package io.readmark.processor;

import io.lettuce.core.RedisException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.readmark.common.config.Settings;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.metrics.ServiceMetrics;
import io.readmark.processor.commit.ReplicaSettingCheck;
import io.readmark.store.unread.ListpackSettingCheck;
import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.commit.WriterPerThread;
import io.readmark.processor.deadletters.DeadLetterCategory;
import io.readmark.processor.fanout.FanoutProgress;
import io.readmark.processor.fanout.FanoutWorkerTopology;
import io.readmark.processor.fanout.RateLimiter;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.schemas.Topics;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisRetry;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The stream processor deployable: checks its topics, serves health and metrics over HTTP, connects Redis — in the
 * background while Redis cannot be reached, so a restart during an outage does not crash-loop — then runs the main
 * topology and/or the big-V fan-out worker (each its own Kafka Streams application), and stops cleanly. Nothing is
 * consumed before Redis answers, so no offset moves while the writes could not be applied.
 */
public final class StreamProcessor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StreamProcessor.class);
    private static final String NAME = "stream-processor";

    private final ProcessorConfig config;
    private final ServiceMetrics metrics;
    private final JsonHttpServer server;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("processor-redis-connect").daemon().factory());
    private RedisConnections redis; // guarded by this; null until connected
    private volatile List<StreamsApp> apps = List.of(); // set once, when connected
    private final CountDownLatch connected = new CountDownLatch(1);
    /** 1 while the applications wait for Redis to answer: a process that started during an outage (an alert's input). */
    private final AtomicInteger waitingForRedis = new AtomicInteger();
    private boolean closed; // guarded by this

    private StreamProcessor(ProcessorConfig config, ServiceMetrics metrics) throws IOException {
        this.config = config;
        this.metrics = metrics;
        Gauge.builder("readmark.waiting.for.redis", waitingForRedis, AtomicInteger::get)
                .description("1 while the processor cannot start its applications because Redis does not answer")
                .register(metrics.registry());
        HealthRoutes health = new HealthRoutes(() -> apps);
        this.server = JsonHttpServer.management(NAME, metrics.registry(), health::live, health::ready)
                .start(config.httpHost(), config.httpPort());
    }

    /**
     * Serves health and metrics, and starts the applications once Redis answers: now, or after background attempts
     * ({@link RedisRetry}) while it cannot be reached, ready staying 503 until then.
     *
     * @throws UncheckedIOException if the HTTP port cannot be bound
     * @throws IllegalArgumentException if the Redis URL is not one (no retry would help)
     */
    public static StreamProcessor start(ProcessorConfig config) {
        if (config.runMain()) requireTopics(config);
        log.atInfo().addKeyValue("applicationId", config.applicationId()).addKeyValue("main", config.runMain())
                .addKeyValue("fanout", config.runFanoutWorker()).log("stream processor starting");
        ServiceMetrics metrics = new ServiceMetrics(NAME);
        StreamProcessor processor;
        try {
            processor = new StreamProcessor(config, metrics);
        } catch (IOException e) {
            metrics.close();
            throw new UncheckedIOException(NAME + " cannot listen on " + config.httpHost() + ":" + config.httpPort(), e);
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        try {
            processor.attempt(RedisRetry.FIRST);
        } catch (RuntimeException e) {
            processor.close();
            throw e;
        }
        return processor;
    }

    /** Connects and starts the applications, or tries again after {@code nextRetry} while Redis is unreachable. */
    private void attempt(Duration nextRetry) {
        RedisConnections connection;
        try {
            connection = RedisConnections.connect(config.redis(), config.redisTimeout(), false, metrics.registry());
        } catch (RedisException e) {
            synchronized (this) {
                if (closed) return;
                waitingForRedis.set(1);
                log.atWarn().addKeyValue("retryInMs", nextRetry.toMillis()).addKeyValue("error", e.getMessage())
                        .log("Redis is unreachable; not ready, and nothing is consumed until it answers");
                retries.schedule(() -> attemptLater(RedisRetry.after(nextRetry)), nextRetry.toMillis(), TimeUnit.MILLISECONDS);
            }
            return;
        }
        synchronized (this) {
            if (closed) {
                connection.close();
                return;
            }
            redis = connection;
            waitingForRedis.set(0);
            ReplicaSettingCheck.warning(connection, config.waitReplicas()).ifPresent(log::warn);
            ListpackSettingCheck.warning(connection.shared()).ifPresent(log::warn);
            List<StreamsApp> created = createApps(config, connection, metrics.registry());
            created.forEach(StreamsApp::start);
            apps = List.copyOf(created);
        }
        this.connected.countDown();
        log.info("stream processor connected to Redis; its applications are starting");
    }

    /** An attempt on the retry thread: a failure other than Redis's absence has no caller to go to, so it is logged. */
    private void attemptLater(Duration nextRetry) {
        try {
            attempt(nextRetry);
        } catch (RuntimeException e) {
            log.atError().setCause(e).log("the stream processor could not start its applications; it stays not ready");
        }
    }

    private static List<StreamsApp> createApps(ProcessorConfig config, RedisConnections redis, MeterRegistry registry) {
        UnreadKeys keys = new UnreadKeys(config.redisPrefix());
        ProcessorMeters meters = new ProcessorMeters(registry);
        List<StreamsApp> apps = new ArrayList<>();
        if (config.runMain()) {
            WriterPerThread writers = new WriterPerThread(redis, keys, config.limits(), config.maxPendingWrites(),
                    meters.deliveries("main"), meters.redisWriteRetries("main"), config.waitReplicas(),
                    config.layoutUpgrade());
            ThreadCommits commits = new ThreadCommits();
            Topics topics = config.topics();
            meters.expectDeadLetters(List.of(topics.blogEvents().name(), topics.followEvents().name(), topics.readEvents().name(),
                    topics.noticeEvents().name()), DeadLetterCategory.labels());
            apps.add(new StreamsApp("stream processor",
                    UnreadTopology.build(config.topics(), config.eventTimes(), config.authorPartitions(), writers, commits, config.fanout(), meters),
                    config.streamsProperties(), writers, commits, registry));
        }
        if (config.runFanoutWorker()) {
            WriterPerThread writers = new WriterPerThread(redis, keys, config.limits(), config.maxPendingWrites(),
                    meters.deliveries("fanout"), meters.redisWriteRetries("fanout"), config.waitReplicas(),
                    config.layoutUpgrade());
            meters.expectDeadLetters(List.of(config.topics().fanoutChunks().name()), DeadLetterCategory.labels());
            RateLimiter rate = new RateLimiter(config.fanoutDeliveriesPerSecond());
            apps.add(new StreamsApp("fan-out worker",
                    FanoutWorkerTopology.build(config.topics(), writers, rate, config.fanoutBurst(), new FanoutProgress(), meters),
                    config.fanoutWorkerProperties(), writers, new ThreadCommits(), registry));
        }
        return apps;
    }

    /** Waits until Redis answered and every application first reports RUNNING; false if not within the timeout. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!connected.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) return false;
        for (StreamsApp app : apps) {
            if (!app.awaitRunning(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) return false;
        }
        return true;
    }

    public boolean isRunning() {
        List<StreamsApp> current = apps;
        return !current.isEmpty() && StreamsApp.allRunning(current);
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
        List<StreamsApp> current = apps;
        return current.isEmpty() ? HealthRoutes.WAITING_FOR_REDIS : StreamsApp.describe(current);
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
        try (Admin admin = Admin.create(config.adminProperties())) {
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

    /** Applications first, so readiness turns 503 while they drain; the HTTP server and metrics last; idempotent. */
    @Override
    public void close() {
        RedisConnections connection;
        synchronized (this) {
            if (closed) return;
            closed = true;
            connection = redis;
        }
        retries.shutdownNow();
        apps.forEach(StreamsApp::close);
        server.close();
        if (connection != null) connection.close();
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
