package io.readmark.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started from this one's class path, so that it can be killed like a crashed host. Only the given settings
 * reach it (a caller's own environment must not leak in); every start appends to one log file (a file, not a pipe
 * nobody drains); a shutdown hook here and {@link ParentWatchdog} there make sure it never outlives this JVM.
 */
final class ChildJvm implements AutoCloseable {

    private static final List<String> INHERITED_VARIABLES = List.of("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL");

    private final String name;
    private final Path logFile;
    private final Thread shutdownHook;
    private volatile Process process;

    ChildJvm(String name, Path logFile) {
        this.name = name;
        this.logFile = logFile;
        this.shutdownHook = new Thread(this::destroyNow, name + "-kill-on-exit");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts {@code main} with the JVM flags, arguments and environment; does not wait for anything. */
    synchronized void start(List<String> jvmFlags, Class<?> main, List<String> args, Map<String, String> environment, String banner) {
        if (isAlive()) throw new IllegalStateException(name + " is already running");
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow(() -> new IllegalStateException("no java command")));
        command.addAll(jvmFlags);
        command.add("--enable-native-access=ALL-UNNAMED");
        // Kafka still uses sun.misc.Unsafe; JDK 24+ warns about it unless told it is allowed.
        if (Runtime.version().feature() >= 24) command.add("--sun-misc-unsafe-memory-access=allow");
        command.addAll(List.of("-D" + ParentWatchdog.PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid(),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        Map<String, String> inherited = Map.copyOf(env);
        env.clear();
        INHERITED_VARIABLES.forEach(variable -> {
            if (inherited.containsKey(variable)) env.put(variable, inherited.get(variable));
        });
        env.putAll(environment);
        try {
            append("==== " + Instant.now() + " " + banner);
            process = builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    boolean isAlive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    long pid() {
        Process p = process;
        if (p == null) throw new IllegalStateException(name + " is not running");
        return p.pid();
    }

    /** SIGKILL, as a crashed host: no commit, no flush, no goodbye. Returns once the process is gone. */
    synchronized void kill(Duration timeout) {
        Process p = process;
        if (p == null) return;
        p.destroyForcibly();
        if (!waitFor(p, timeout)) throw new IllegalStateException(name + " did not end within " + timeout.toSeconds() + " s of SIGKILL");
        append("==== " + Instant.now() + " killed (SIGKILL)");
    }

    /** SIGTERM, and SIGKILL if it does not end within the timeout. */
    synchronized void stop(Duration timeout) {
        Process p = process;
        if (p == null || !p.isAlive()) return;
        p.destroy();
        if (!waitFor(p, timeout)) {
            append("==== " + Instant.now() + " did not stop within " + timeout.toSeconds() + " s; killed");
            p.destroyForcibly();
            waitFor(p, timeout);
        }
    }

    /** The whole log of every start so far. */
    String log() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + logFile, e);
        }
    }

    /** The last lines of the log, for failure messages. */
    String logTail(int lines) {
        List<String> all = log().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    void append(String line) {
        try {
            Files.writeString(logFile, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + logFile, e);
        }
    }

    /** Stops it (SIGTERM, then SIGKILL after the timeout) and forgets the shutdown hook. */
    void close(Duration timeout) {
        stop(timeout);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already exiting: the hook runs (or ran) and kills the process anyway.
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(40));
    }

    private void destroyNow() {
        Process p = process;
        if (p != null) p.destroyForcibly();
    }

    private boolean waitFor(Process p, Duration timeout) {
        try {
            return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name + " to end", e);
        }
    }
}
