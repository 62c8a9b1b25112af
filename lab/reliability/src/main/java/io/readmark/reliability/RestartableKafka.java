package io.readmark.reliability;

import io.readmark.infra.KafkaClusterNode;
import io.readmark.infra.KafkaTopics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A single-node Kafka in its own OS process ({@link ChildKafkaMain}) that can go away and come back on the same port
 * with the same data: stopped (SIGTERM, a controlled shutdown that flushes its logs, as a restart or upgrade) or
 * killed (SIGKILL, as a crashed broker process: nothing flushed, the log recovered at the next start). The data and
 * the broker's log live in a temporary directory deleted on {@link #close()}. It may also be one node of a
 * {@link KafkaCluster}.
 */
public final class RestartableKafka implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RestartableKafka.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final List<String> SINGLE_NODE_FLAGS = List.of("-Xmx768m", "-XX:+UseSerialGC");
    /** Three of these share the cores with the rest of a test: the quick compiler only, so that they start sooner. */
    private static final List<String> CLUSTER_NODE_FLAGS = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final Path workDir;
    private final Path logDir;
    private final ChildJvm jvm;
    /** Empty for a single-node broker; else the node of a cluster this is, as {@link ChildKafkaMain} takes it. */
    private final List<String> clusterNode;
    private int port;

    private RestartableKafka(Path workDir, String name, int port, List<String> clusterNode) {
        this.workDir = workDir;
        this.logDir = workDir.resolve("data");
        this.jvm = new ChildJvm(name, workDir.resolve(name + ".log"));
        this.port = port;
        this.clusterNode = clusterNode;
    }

    /** A node of a cluster in {@code workDir}, not started: {@link KafkaCluster} starts its nodes side by side. */
    static RestartableKafka clusterNode(Path workDir, KafkaClusterNode node) {
        return new RestartableKafka(workDir, "kafka-" + node.nodeId(), node.brokerPort(), node.arguments());
    }

    /** A running broker on a free port with a fresh log dir. */
    public static RestartableKafka launch() {
        Path workDir;
        try {
            workDir = Files.createTempDirectory("readmark-restartable-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a Kafka work dir", e);
        }
        RestartableKafka kafka = new RestartableKafka(workDir, "kafka", 0, List.of());
        try {
            kafka.start();
            return kafka;
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
    }

    /** Stays the same across restarts. */
    public String bootstrapServers() {
        return "localhost:" + port;
    }

    public synchronized boolean isRunning() {
        return jvm.isAlive();
    }

    /** Creates topics that do not exist yet; the broker must be running. */
    public void createTopics(Map<String, Integer> partitionsByTopic) {
        KafkaTopics.createTopics(bootstrapServers(), partitionsByTopic);
    }

    /** Shuts the broker down (controlled: logs flushed); clients see connections refused until {@link #start()}. */
    public synchronized void stop() {
        long started = System.nanoTime();
        requireRunning();
        jvm.stop(STOP_TIMEOUT);
        log.info("Kafka on {} stopped in {} ms", bootstrapServers(), Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /** SIGKILLs the broker process: no controlled shutdown, no flush; clients see connections refused until {@link #start()}. */
    public synchronized void kill() {
        requireRunning();
        jvm.kill(STOP_TIMEOUT);
        log.info("Kafka on {} killed (SIGKILL)", bootstrapServers());
    }

    /** Starts the broker (again on the same port, with the data it had); returns once it accepts clients. */
    public synchronized void start() {
        long started = System.nanoTime();
        awaitStarted(startProcess(), started);
    }

    /** Starts the broker's process; returns the length its log had, from where {@link #awaitStarted} looks. */
    synchronized int startProcess() {
        if (jvm.isAlive()) throw new IllegalStateException("Kafka on " + bootstrapServers() + " is already running");
        int logLength = jvm.log().length();
        List<String> arguments = new ArrayList<>(List.of(Integer.toString(port), logDir.toString()));
        arguments.addAll(clusterNode);
        jvm.start(clusterNode.isEmpty() ? SINGLE_NODE_FLAGS : CLUSTER_NODE_FLAGS, ChildKafkaMain.class, arguments,
                Map.of(), port == 0 ? "start on a free port" : "start on port " + port);
        return logLength;
    }

    /** Returns once the process {@link #startProcess} started accepts clients; kills it if it does not in time. */
    synchronized void awaitStarted(int logLength, long started) {
        try {
            Poll.until(() -> {
                if (!jvm.isAlive()) throw new IllegalStateException("Kafka exited before it was ready:\n" + jvm.logTail(40));
                return readyPort(jvm.log().substring(logLength)) > 0;
            }, START_TIMEOUT, POLL, () -> "Kafka not ready:\n" + jvm.logTail(40));
        } catch (RuntimeException e) {
            jvm.kill(STOP_TIMEOUT);
            throw e;
        }
        port = readyPort(jvm.log().substring(logLength));
        log.info("Kafka on {} started in {} ms", bootstrapServers(), Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /** The last lines of the broker's log, for failure messages. */
    public String logTail(int lines) {
        return jvm.logTail(lines);
    }

    /** Stops the broker if it runs and deletes its data. */
    @Override
    public synchronized void close() {
        jvm.close(STOP_TIMEOUT);
        try (Stream<Path> paths = Files.walk(workDir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            log.warn("could not delete {}", workDir, e);
        }
    }

    private void requireRunning() {
        if (!jvm.isAlive()) throw new IllegalStateException("Kafka on " + bootstrapServers() + " is stopped");
    }

    /** The port of the ready line in the log, 0 until the whole line is there. */
    private static int readyPort(String log) {
        int at = log.indexOf(ChildKafkaMain.READY);
        if (at < 0) return 0;
        int from = at + ChildKafkaMain.READY.length();
        int end = log.indexOf('\n', from);
        return end < 0 ? 0 : Integer.parseInt(log.substring(from, end).strip());
    }
}
