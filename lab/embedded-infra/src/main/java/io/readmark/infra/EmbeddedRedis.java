package io.readmark.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real {@code redis-server} child process bound to 127.0.0.1, without persistence unless started with
 * {@link #startPersistent(int)}, speaking TLS only when started with {@link #startTls}.
 * Guarantees that {@code start}/{@link #restart()} return only once the server answers (plain: {@code PING}), and that
 * {@link #stop()}/{@link #kill()}/{@link #close()} return only once the process has exited (so the port is free again).
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration PING_TIMEOUT = Duration.ofMillis(250);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(10);
    private static final int BIND_ATTEMPTS = 3;

    private final Path binary;
    private final int port;
    private final Path workDir;
    private final List<String> extraArgs;
    private final boolean persistent;
    private final boolean tls;
    private final String sentinelConfig; // null: a data server, not a Sentinel
    private final Thread shutdownHook;
    private volatile Process process;
    private boolean closed;

    private EmbeddedRedis(Path binary, int port, Path workDir, List<String> extraArgs, boolean persistent, boolean tls,
                          String sentinelConfig) {
        this.binary = binary;
        this.port = port;
        this.workDir = workDir;
        this.extraArgs = List.copyOf(extraArgs);
        this.persistent = persistent;
        this.tls = tls;
        this.sentinelConfig = sentinelConfig;
        // A child process outlives the JVM unless killed; this covers callers that never reach close().
        this.shutdownHook = new Thread(this::killProcess, "embedded-redis-" + port + "-shutdown");
    }

    /**
     * Starts {@code redis-server} on {@code port} (0 = any free port): the one on {@code PATH} if installed,
     * else the binary bundled with embedded-redis.
     *
     * @throws IllegalStateException if the port is already in use or the server does not come up
     */
    public static EmbeddedRedis start(int port) {
        return start(port, RedisBinary.locate());
    }

    /**
     * As {@link #start(int)}, but every write is appended to a file and fsynced before it is acknowledged
     * ({@code appendfsync always}), and {@link #restart()} reloads it: data survives {@link #stop()}, as on a
     * production Redis with an append-only file. For outage tests that must find the data again.
     */
    public static EmbeddedRedis startPersistent(int port) {
        return start(port, RedisBinary.locate(), List.of(), true, false, null);
    }

    /**
     * Starts a server on a free port that speaks TLS only, with the certificate {@code certificates} signed, and more
     * flags such as ACL users ({@code --user "name on >password ..."}); {@link #url()} is then {@code rediss://}.
     */
    public static EmbeddedRedis startTls(TlsCertificates certificates, List<String> extraArgs) {
        List<String> args = new ArrayList<>(List.of("--tls-cert-file", certificates.certFile().toString(),
                "--tls-key-file", certificates.keyFile().toString(), "--tls-ca-cert-file", certificates.caFile().toString(),
                "--tls-auth-clients", "no"));
        args.addAll(extraArgs);
        return start(0, RedisBinary.locate(), args, false, true, null);
    }

    /**
     * Starts a replica of {@code master} on a free port, and returns once it is in sync. The master is told to start
     * a full sync at once rather than after Redis's diskless-sync delay.
     */
    public static EmbeddedRedis startReplicaOf(EmbeddedRedis master) {
        RespCommand.call(master.port(), COMMAND_TIMEOUT, "CONFIG", "SET", "repl-diskless-sync-delay", "0");
        EmbeddedRedis replica = start(0, RedisBinary.locate(), List.of("--replicaof", "127.0.0.1", String.valueOf(master.port())));
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (!replica.isSyncedReplica()) {
            if (System.nanoTime() > deadline) {
                replica.close();
                throw new IllegalStateException("replica on port " + replica.port() + " did not sync within " + STARTUP_TIMEOUT);
            }
            pause(POLL_INTERVAL); // polling: nothing signals a finished sync
        }
        return replica;
    }

    /**
     * Starts a Sentinel on a free port with {@code config} as its {@code sentinel.conf}, which it rewrites as it
     * learns replicas, other sentinels and failovers, and reads again on {@link #restart()}.
     */
    static EmbeddedRedis startSentinel(String config) {
        return start(0, RedisBinary.locate(), List.of(), false, false, config);
    }

    /** Whether this server is a replica in sync with its master. */
    public boolean isSyncedReplica() {
        String info = RespCommand.call(port, COMMAND_TIMEOUT, "INFO", "replication");
        return info.contains("role:slave") && info.contains("master_link_status:up") && info.contains("master_sync_in_progress:0");
    }

    /**
     * Cuts this replica's link to its master: it keeps its data but receives no more writes, as when the network between
     * them fails. It is told a wrong password for its master and its link closed, so it cannot resync until
     * {@link #restoreReplication()}; a lag made certain rather than a matter of timing.
     */
    public void cutReplication() {
        RespCommand.call(port, COMMAND_TIMEOUT, "CONFIG", "SET", "masterauth", "wrong-on-purpose");
        RespCommand.call(port, COMMAND_TIMEOUT, "CLIENT", "KILL", "TYPE", "master");
    }

    /** Lets a replica cut by {@link #cutReplication()} resync, which it does within a second or so. */
    public void restoreReplication() {
        RespCommand.call(port, COMMAND_TIMEOUT, "CONFIG", "SET", "masterauth", "");
    }

    /** Starts the given {@code redis-server} executable; visible for tests of the bundled fallback. */
    static EmbeddedRedis start(int port, Path binary) {
        return start(port, binary, List.of());
    }

    /** As {@link #start(int, Path)}, with more redis-server flags (e.g. cluster mode); relative paths resolve in the work dir. */
    static EmbeddedRedis start(int port, Path binary, List<String> extraArgs) {
        return start(port, binary, extraArgs, false, false, null);
    }

    private static EmbeddedRedis start(int port, Path binary, List<String> extraArgs, boolean persistent, boolean tls,
                                       String sentinelConfig) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        for (int attempt = 1; ; attempt++) {
            int chosen = port != 0 ? port : LocalPorts.freePort();
            EmbeddedRedis redis = new EmbeddedRedis(binary, chosen, TempDirs.create("readmark-redis-"), extraArgs, persistent, tls,
                    sentinelConfig);
            try {
                redis.launch();
                Runtime.getRuntime().addShutdownHook(redis.shutdownHook);
                return redis;
            } catch (PortInUseException e) {
                redis.deleteWorkDir();
                if (port != 0 || attempt >= BIND_ATTEMPTS) {
                    throw e;
                }
                log.debug("Port race while starting redis-server (attempt {}), retrying", attempt);
            } catch (RuntimeException e) {
                redis.deleteWorkDir();
                throw e;
            }
        }
    }

    /** {@code redis://127.0.0.1:PORT}, or {@code rediss://} when started with {@link #startTls}. */
    public String url() {
        return (tls ? "rediss" : "redis") + "://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** True while the process is alive (it may still be starting or shutting down). */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it; the port stays reserved for restart. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        Process p = process;
        process = null;
        p.destroy();
        try {
            if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("redis-server on port {} ignored SIGTERM for {}; killing it", port, STOP_TIMEOUT);
                p.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        log.info("redis-server on 127.0.0.1:{} stopped", port);
    }

    /**
     * SIGKILLs the server, as a crashed host would lose it, and waits for it to exit; {@link #restart()} starts it
     * again on the same port and work dir (a cluster node keeps its {@code nodes.conf}).
     */
    public synchronized void kill() {
        Process p = process;
        if (p == null) return;
        process = null;
        try {
            p.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.info("redis-server on 127.0.0.1:{} killed", port);
    }

    /**
     * Starts the server again on the same port (stopping it first if running). Data is kept only by a server
     * started with {@link #startPersistent(int)}: it reloads its append-only file from the same work dir.
     */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("EmbeddedRedis on port " + port + " is closed");
        }
        stop();
        launch();
    }

    /** Stops the server and deletes its working directory; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // Already shutting down (e.g. closed from another shutdown hook): the process is stopped anyway.
        }
        deleteWorkDir();
    }

    private synchronized void launch() {
        if (!LocalPorts.isFree(port)) {
            throw new PortInUseException(port, "");
        }
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if (sentinelConfig != null) command.addAll(List.of(sentinelConfigFile().toString(), "--sentinel"));
        command.addAll(List.of(
                "--port", String.valueOf(tls ? 0 : port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", persistent ? "yes" : "no",
                "--appendfsync", "always",
                // the thresholds the unread layout is sized for (ListpackSettingCheck), by their names before Redis
                // 7, which it still takes, so the bundled 6.2 fallback starts too
                "--zset-max-ziplist-entries", "2048",
                "--hash-max-ziplist-value", "512",
                "--protected-mode", "no",
                "--daemonize", "no",
                "--dir", workDir.toString()));
        if (tls) command.addAll(List.of("--tls-port", String.valueOf(port)));
        command.addAll(extraArgs);
        Path logFile = workDir.resolve("redis.log");
        long startNanos = System.nanoTime();
        try {
            // Output goes to a file, not a pipe: nobody has to drain it and it is there for error messages.
            process = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run " + binary, e);
        }
        awaitPong(logFile);
        log.info("redis-server ({}) started on 127.0.0.1:{} in {} ms", binary, port,
                Duration.ofNanos(System.nanoTime() - startNanos).toMillis());
    }

    /** The Sentinel's config file, written once: a restarted Sentinel goes on from what it had learnt. */
    private Path sentinelConfigFile() {
        Path file = workDir.resolve("sentinel.conf");
        try {
            if (!Files.exists(file)) Files.writeString(file, sentinelConfig, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + file, e);
        }
        return file;
    }

    private void awaitPong(Path logFile) {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (!answers(logFile)) {
            if (!process.isAlive()) {
                process = null;
                String output = readQuietly(logFile);
                if (output.contains("Address already in use")) {
                    throw new PortInUseException(port, output);
                }
                throw new IllegalStateException("redis-server on port " + port + " exited during startup:\n" + output);
            }
            if (System.nanoTime() > deadline) {
                killProcess();
                process = null;
                throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                        + STARTUP_TIMEOUT + ":\n" + readQuietly(logFile));
            }
            // Polling: redis-server has no readiness signal other than answering.
            try {
                pause(POLL_INTERVAL);
            } catch (IllegalStateException e) {
                killProcess();
                throw e;
            }
        }
    }

    /** A poll's pause, for waits on redis-server that nothing signals (in this package too). */
    static void pause(Duration interval) {
        try {
            Thread.sleep(interval);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for redis-server", e);
        }
    }

    /**
     * Whether the server is up: it answers PING, or, speaking TLS only (which the plain PING cannot), it has logged
     * that it accepts connections.
     */
    private boolean answers(Path logFile) {
        return tls ? readQuietly(logFile).contains("Ready to accept connections") : RedisPing.ping(port, PING_TIMEOUT);
    }

    private void killProcess() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
        }
    }

    private void deleteWorkDir() {
        TempDirs.deleteRecursively(workDir);
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** Lost the bind race, or someone else took the port between the pre-check and redis-server's bind. */
    static final class PortInUseException extends IllegalStateException {
        PortInUseException(int port, String output) {
            super("EmbeddedRedis cannot start: port " + port + " on 127.0.0.1 is already in use by another process"
                    + (output.isBlank() ? "" : "\n" + output));
        }
    }
}
