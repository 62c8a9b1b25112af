package io.readmark.reliability;

import io.readmark.infra.EmbeddedKafka;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A single-node Kafka (in this JVM) that can be stopped and started again on the same port with the same data: to its
 * clients, a broker that goes away and comes back with everything it had acknowledged. A stop is a controlled
 * shutdown, so the broker flushes its logs first, as a restarted or upgraded broker does. The data lives in a
 * temporary directory deleted on {@link #close()}.
 */
public final class RestartableKafka implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RestartableKafka.class);

    private final Path logDir;
    private final int port;
    private EmbeddedKafka broker;

    private RestartableKafka(Path logDir, EmbeddedKafka broker) {
        this.logDir = logDir;
        this.broker = broker;
        this.port = broker.port();
    }

    /** A running broker on a free port with a fresh log dir. */
    public static RestartableKafka launch() {
        Path logDir;
        try {
            logDir = Files.createTempDirectory("readmark-restartable-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a Kafka log dir", e);
        }
        try {
            return new RestartableKafka(logDir, EmbeddedKafka.start(0, logDir));
        } catch (RuntimeException e) {
            deleteRecursively(logDir);
            throw e;
        }
    }

    /** Stays the same across restarts. */
    public String bootstrapServers() {
        return "localhost:" + port;
    }

    public synchronized boolean isRunning() {
        return broker != null;
    }

    /** Creates topics (replication factor 1) that do not exist yet; the broker must be running. */
    public synchronized void createTopics(Map<String, Integer> partitionsByTopic) {
        requireRunning().createTopics(partitionsByTopic);
    }

    /** Shuts the broker down (controlled: logs flushed); clients see connections refused until {@link #start()}. */
    public synchronized void stop() {
        long started = System.nanoTime();
        requireRunning().close();
        broker = null;
        log.info("Kafka on {} stopped in {} ms", bootstrapServers(), Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /** Starts the broker again on the same port with the data it had; returns once it accepts clients. */
    public synchronized void start() {
        if (broker != null) throw new IllegalStateException("Kafka on " + bootstrapServers() + " is already running");
        long started = System.nanoTime();
        broker = EmbeddedKafka.start(port, logDir);
        log.info("Kafka on {} started again in {} ms", bootstrapServers(), Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /** Stops the broker, keeps it down for {@code downtime}, and starts it again: one broker outage. */
    public void restart(Duration downtime) throws InterruptedException {
        stop();
        Thread.sleep(downtime);
        start();
    }

    /** Stops the broker if it runs and deletes its data. */
    @Override
    public synchronized void close() {
        if (broker != null) {
            broker.close();
            broker = null;
        }
        deleteRecursively(logDir);
    }

    private EmbeddedKafka requireRunning() {
        if (broker == null) throw new IllegalStateException("Kafka on " + bootstrapServers() + " is stopped");
        return broker;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            log.warn("could not delete {}", dir, e);
        }
    }
}
