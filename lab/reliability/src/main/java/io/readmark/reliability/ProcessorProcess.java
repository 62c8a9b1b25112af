package io.readmark.reliability;

import io.readmark.infra.LocalPorts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The stream processor as a separate OS process, so that it can be killed like a crashed host: SIGKILL leaves no
 * chance to commit, flush or leave the consumer group. Each start gets a free HTTP port; the state dir is kept
 * across restarts unless wiped, and every start appends to one log file (a file, not a pipe nobody drains).
 */
public final class ProcessorProcess implements AutoCloseable {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String name;
    private final Map<String, String> environment;
    private final Path stateDir;
    private final Path logFile;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ChildJvm jvm;
    private volatile int httpPort;
    private int starts;

    /**
     * @param environment the processor's settings; {@code PROCESSOR_STATE_DIR} and {@code PROCESSOR_HTTP_PORT} are set here
     * @param workDir     where its state dir and log file go
     */
    public ProcessorProcess(String name, Map<String, String> environment, Path workDir) {
        this.name = name;
        this.environment = Map.copyOf(environment);
        this.stateDir = workDir.resolve(name + "-state");
        this.logFile = workDir.resolve(name + ".log");
        this.jvm = new ChildJvm(name, logFile);
    }

    public String name() {
        return name;
    }

    public Path logFile() {
        return logFile;
    }

    public Path stateDir() {
        return stateDir;
    }

    /** How many times it was started, the first start included. */
    public synchronized int starts() {
        return starts;
    }

    public boolean isAlive() {
        return jvm.isAlive();
    }

    /** The health and metrics port of the current run, or of the last one while stopped; 0 before the first start. */
    public int httpPort() {
        return httpPort;
    }

    /** The OS process id of the current run. */
    public long pid() {
        return jvm.pid();
    }

    /** Starts the process (not waiting for it to be ready); its previous state dir is used as it is. */
    public synchronized void start() {
        if (isAlive()) throw new IllegalStateException(name + " is already running");
        httpPort = LocalPorts.freePort();
        starts++;
        try {
            Files.createDirectories(stateDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + stateDir, e);
        }
        Map<String, String> env = new HashMap<>(environment);
        env.put("PROCESSOR_STATE_DIR", stateDir.toString());
        env.put("PROCESSOR_HTTP_PORT", Integer.toString(httpPort));
        jvm.start(List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), ChildProcessorMain.class, List.of(), env,
                "start #" + starts + " of " + name + " on port " + httpPort);
    }

    /**
     * Waits until {@code /health/ready} answers 200: every Kafka Streams application of the process is RUNNING.
     *
     * @throws IllegalStateException if the process exits or is not ready within the timeout (with its last log lines)
     */
    public void awaitReady(Duration timeout) {
        Poll.until(() -> {
            if (!isAlive()) throw new IllegalStateException(name + " exited before it was ready:\n" + logTail(40));
            return status("/health/ready") == 200;
        }, timeout, POLL, () -> name + " not ready:\n" + logTail(40));
    }

    /** SIGKILL, as a crashed host: no commit, no flush, no leaving the group. Returns once the process is gone. */
    public void kill() {
        jvm.kill(STOP_TIMEOUT);
    }

    /** SIGTERM: the processor commits what Redis acknowledged and leaves its groups. Killed if it does not end in time. */
    public void stop() {
        jvm.stop(STOP_TIMEOUT);
    }

    /** Stops (gracefully) if running and starts again with the same state dir. */
    public synchronized void restart() {
        stop();
        start();
    }

    /** Deletes the state dir, so the next start restores every store from its changelog topic. */
    public synchronized void wipeState() {
        if (isAlive()) throw new IllegalStateException("cannot wipe the state of running " + name);
        if (!Files.exists(stateDir)) return;
        try (Stream<Path> paths = Files.walk(stateDir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot wipe " + stateDir, e);
        }
        jvm.append("==== " + Instant.now() + " state dir wiped");
    }

    /** The status of a GET on the process's HTTP port, or -1 when it does not answer. */
    public int status(String path) {
        try {
            return get(path).statusCode();
        } catch (UncheckedIOException e) {
            return -1;
        }
    }

    /** A GET on the process's health and metrics port, e.g. {@code /metrics}. */
    public HttpResponse<String> get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .timeout(Duration.ofSeconds(5)).GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(name + " did not answer GET " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The whole log of every start so far. */
    public String log() {
        return jvm.log();
    }

    /** The last lines of the log, for failure messages. */
    public String logTail(int lines) {
        return jvm.logTail(lines);
    }

    @Override
    public void close() {
        jvm.close(STOP_TIMEOUT);
    }
}
