package io.readmark.reliability;

import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.PrometheusText;
import io.readmark.processor.ProcessorConfig;
import io.readmark.store.redis.RedisConnections;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One run of the fault harness: the run's topics, its processor processes, the workload with its model, and the
 * final drain and check. Faults act on it ({@link Fault}); scenario tests and the soak are built from it. Kafka
 * and Redis are given: the restartable or embedded instances when a fault needs to stop them, absent for shared
 * infrastructure.
 */
public final class Harness implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration FANOUT_POLL = Duration.ofMillis(100);
    private static final String PENDING_FOLLOWERS = "readmark_fanout_pending_followers";

    private final Pipeline pipeline;
    private final WorkloadShape shape;
    private final Path workDir;
    private final RestartableKafka kafka;
    private final EmbeddedRedis redis;
    private final List<ProcessorProcess> processors = new CopyOnWriteArrayList<>();
    private final EventProducer producer;
    private final ExpectedUnread expected = new ExpectedUnread();
    private final Workload workload;
    private final PipelineDrain drain;

    /**
     * Creates the run's topics.
     *
     * @param kafka the broker, if it runs here and may be restarted by a fault; else null
     * @param redis the Redis, if it is embedded here and may be stopped by a fault; else null
     */
    public Harness(Pipeline pipeline, WorkloadShape shape, long seed, Path workDir, RestartableKafka kafka, EmbeddedRedis redis) {
        this.pipeline = pipeline;
        this.shape = shape;
        this.workDir = workDir;
        this.kafka = kafka;
        this.redis = redis;
        pipeline.createTopics();
        this.producer = new EventProducer(pipeline.bootstrapServers(), pipeline.topics(), seed);
        this.workload = new Workload(shape, seed, producer, expected, pipeline.names().runId());
        this.drain = new PipelineDrain(pipeline.bootstrapServers(), pipeline.names());
    }

    /** Starts one more processor process (roles main and fan-out), not waiting until it is ready. */
    public ProcessorProcess startProcessor(String name) {
        return startProcessor(name, Map.of());
    }

    /** As {@link #startProcessor(String)}, with settings added to the run's: a mechanism a scenario turns on or off. */
    public ProcessorProcess startProcessor(String name, Map<String, String> moreSettings) {
        Map<String, String> environment = new HashMap<>(pipeline.processorEnvironment(shape.bigVThreshold()));
        environment.putAll(moreSettings);
        ProcessorProcess processor = new ProcessorProcess(name, environment, workDir);
        processors.add(processor);
        processor.start();
        return processor;
    }

    /** Every processor process started, running or not. */
    public List<ProcessorProcess> processors() {
        return List.copyOf(processors);
    }

    public List<ProcessorProcess> runningProcessors() {
        return processors.stream().filter(ProcessorProcess::isAlive).toList();
    }

    /**
     * True once a running processor reports followers of a big-V post still to fan out, asked now and then until
     * {@code wait} ends (once for zero); false if none did: a fault injected right after falls between a post's chunks.
     */
    public boolean awaitFanoutInFlight(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            if (fanoutInFlight()) return true;
            if (System.nanoTime() >= deadline) return false;
            Poll.pause(FANOUT_POLL);
        }
    }

    private boolean fanoutInFlight() {
        for (ProcessorProcess processor : runningProcessors()) {
            try {
                if (PrometheusText.sum(processor.get("/metrics").body(), PENDING_FOLLOWERS) > 0) return true;
            } catch (RuntimeException e) {
                if (Thread.currentThread().isInterrupted()) throw e;
                // Restarting or busy: ask the next one.
            }
        }
        return false;
    }

    /** Waits until every running processor's applications are RUNNING. */
    public void awaitReady() {
        runningProcessors().forEach(processor -> processor.awaitReady(READY_TIMEOUT));
    }

    /** Produces the follower graph the workload starts from (acknowledged by Kafka on return). */
    public void setUpWorkload() {
        workload.setUp();
    }

    /** Starts producing the mixed workload at the shape's rate, until the runner is stopped. */
    public WorkloadRunner startWorkload() {
        return WorkloadRunner.start(workload, shape.eventsPerSecond());
    }

    /** Records produced so far, set-up and duplicates included. */
    public long eventsProduced() {
        return workload.eventsProduced();
    }

    /** Waits until the running processors have applied everything produced; returns how long that took. */
    public Duration drain(Duration timeout) {
        return drain.await(timeout, this::runningProcessors);
    }

    /** Compares Redis with the model; call once the workload has stopped and the pipeline drained. */
    public CheckResult check() {
        try (RedisConnections connections = RedisConnections.connect(pipeline.redisUrl(), Duration.ofSeconds(10), false);
             RedisConnections.BinaryConnection binary = connections.openBinary()) {
            return new UnreadStateCheck(connections.shared(), binary, pipeline.names().redisPrefix()).compare(expected);
        }
    }

    public ExpectedUnread expected() {
        return expected;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public Path workDir() {
        return workDir;
    }

    /**
     * The settings of the run's processors as a {@link ProcessorConfig}, for what runs beside them in this JVM (a
     * rebuild), with a state dir of its own.
     */
    public ProcessorConfig processorConfig(Path stateDir) {
        return ProcessorConfig.from(Settings.of(processorEnvironment(stateDir), Map.of()));
    }

    /** The same settings as an environment, for what runs beside the processors in a process of its own. */
    public Map<String, String> processorEnvironment(Path stateDir) {
        Map<String, String> environment = new HashMap<>(pipeline.processorEnvironment(shape.bigVThreshold()));
        environment.put("PROCESSOR_STATE_DIR", stateDir.toString());
        return environment;
    }

    public Optional<RestartableKafka> kafka() {
        return Optional.ofNullable(kafka);
    }

    public Optional<EmbeddedRedis> redis() {
        return Optional.ofNullable(redis);
    }

    /** Kills the processors (the run is over; nothing is left to commit) and closes the clients; leaves Kafka and Redis. */
    @Override
    public void close() {
        processors.forEach(processor -> {
            processor.kill();
            processor.close();
        });
        producer.close();
        drain.close();
    }
}
