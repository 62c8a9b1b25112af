package io.readmark.bench;

import io.lettuce.core.FlushMode;
import io.lettuce.core.RedisURI;
import io.readmark.infra.RespCommand;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.EntryRecord;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadScript;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redis alone, driven by a C client: the product's delivery scripts for every (post, follower) pair of the workload,
 * written once as RESP to a file and sent by {@code redis-cli --pipe} (Redis's mass-insertion mode: it writes
 * without waiting and reads the replies as they come) into a database of its own. No JVM, Kafka or RocksDB is on
 * that path, and the client needs a small fraction of the CPU a JVM client needs, so what Redis absorbs this way
 * bounds what the pipeline can reach on the same machine. Each run starts from an empty database, and is verified
 * by counting the deliveries visible in it. The naive baseline writes to the same database ({@link #scratch()}), so
 * neither leaves keys beside the product's for the read phases.
 */
final class CeilingPhase implements AutoCloseable {

    record Result(long deliveries, double seconds, CpuUsage cpu) implements WriteMeasurement {
    }

    /** The write baselines' database: apart from the product's (0) and seed 000's (1), emptied with FLUSHDB. */
    static final int DATABASE = 2;
    static final String PREFIX = "ceiling";
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final Pattern SUMMARY = Pattern.compile("errors: (\\d+), replies: (\\d+)");

    private final Path commands;
    private final long commandCount;
    private final String host;
    private final int port;
    private final RedisConnections database;
    private final RedisStats databaseStats;
    private final Workload workload;

    private CeilingPhase(Path commands, long commandCount, String host, int port, RedisConnections database, Workload workload) {
        this.commands = commands;
        this.commandCount = commandCount;
        this.host = host;
        this.port = port;
        this.database = database;
        this.databaseStats = new RedisStats(database);
        this.workload = workload;
    }

    /** Writes the workload's commands to a temporary file. */
    static CeilingPhase prepare(String redisUrl, RedisConnections redis, Workload workload, PrintStream err) throws IOException {
        RedisURI uri = RedisURI.create(redisUrl);
        // The script cache serves every database.
        for (UnreadScript script : List.of(UnreadScript.DELIVER_ONE, UnreadScript.DELIVER_MANY)) redis.shared().sync().scriptLoad(script.body());
        Path file = Files.createTempFile("readmark-ceiling-", ".resp");
        file.toFile().deleteOnExit(); // a large file: not left behind by an interrupted run
        try {
            long started = System.nanoTime();
            long commands = writeCommands(file, workload);
            err.printf("ceiling: %,d commands for %,d deliveries (%,d MB) written in %.1f s%n", commands, workload.deliveries(),
                    Files.size(file) >> 20, (System.nanoTime() - started) / 1e9);
            RedisConnections database = RedisConnections.connect(
                    "redis://" + uri.getHost() + ":" + uri.getPort() + "/" + DATABASE, Duration.ofSeconds(60), false);
            try {
                return new CeilingPhase(file, commands, uri.getHost(), uri.getPort(), database, workload);
            } catch (RuntimeException e) {
                database.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** The database the ceiling runs in, emptied at the start of each ceiling run and at the end. */
    RedisConnections scratch() {
        return database;
    }

    /** One run on an empty ceiling database; {@code stats} (any database: INFO is server-wide) meters the CPU. */
    Result run(RedisStats stats, PrintStream err) throws IOException, InterruptedException {
        database.shared().sync().flushdb(FlushMode.SYNC);
        // To a file, not a pipe: --pipe prints every error reply, and a full pipe nobody reads would block it.
        Path output = Files.createTempFile("readmark-ceiling-", ".out");
        CpuUsage.Meter cpu = CpuUsage.start(stats);
        long start = System.nanoTime();
        Process client = new ProcessBuilder("redis-cli", "-h", host, "-p", Integer.toString(port), "-n", Integer.toString(DATABASE), "--pipe")
                .redirectInput(commands.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try (ProgressBar bar = new ProgressBar(err, "ceiling", commandCount, "scripts")) {
            long callsBefore = stats.scriptCalls();
            while (!client.waitFor(100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() - start > TIMEOUT.toNanos()) {
                    throw new IllegalStateException("ceiling: redis-cli not done within " + TIMEOUT + ": " + tail(output));
                }
                bar.update(Math.min(commandCount, stats.scriptCalls() - callsBefore));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            CpuUsage usage = cpu.stop();
            requireEveryReply(tail(output), client.exitValue(), commandCount);
            long visible = databaseStats.visibleDeliveries(new UnreadKeys(PREFIX), 1, workload.graph().users());
            if (visible != workload.deliveries()) {
                throw new IllegalStateException("ceiling: " + visible + " deliveries visible, expected " + workload.deliveries());
            }
            bar.update(commandCount);
            return new Result(visible, seconds, usage);
        } finally {
            client.destroyForcibly();
            Files.deleteIfExists(output);
        }
    }

    /** The end of redis-cli's output: its summary line, after any error replies it printed. */
    private static String tail(Path output) throws IOException {
        String text = Files.readString(output, StandardCharsets.UTF_8);
        return text.length() <= 2_000 ? text : "…" + text.substring(text.length() - 2_000);
    }

    /** Throws unless redis-cli reported {@code expected} replies and no error. */
    static void requireEveryReply(String output, int exitCode, long expected) {
        Matcher summary = SUMMARY.matcher(output);
        if (exitCode != 0 || !summary.find() || Long.parseLong(summary.group(1)) != 0 || Long.parseLong(summary.group(2)) != expected) {
            throw new IllegalStateException("ceiling: redis-cli --pipe exited " + exitCode + ": " + output.strip());
        }
    }

    /**
     * EVALSHA with the product's scripts, keys and arguments for every (post, follower) pair, as RESP, grouped as the
     * product groups them ({@link Workload#groups()}): deliver_many.lua per group, deliver_one.lua for a group of one.
     * Returns how many commands were written.
     */
    static long writeCommands(Path file, Workload workload) throws IOException {
        UnreadKeys keys = new UnreadKeys(PREFIX);
        byte[] cap = UnreadKeys.decimal(UnreadLimits.DEFAULTS.maxUnreadPerAuthor());
        byte[] userCap = UnreadKeys.decimal(UnreadLimits.DEFAULTS.maxUnreadPerUser());
        byte[] evalsha = "EVALSHA".getBytes(StandardCharsets.US_ASCII);
        byte[] one = UnreadScript.DELIVER_ONE.sha().getBytes(StandardCharsets.US_ASCII);
        byte[] many = UnreadScript.DELIVER_MANY.sha().getBytes(StandardCharsets.US_ASCII);
        PowerLawGraph graph = workload.graph();
        long commands = 0;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (Workload.Post post : workload.posts()) {
                for (ScriptGroups.Group group : workload.groups().of(graph.followerCount(post.authorId()))) {
                    int size = group.to() - group.from();
                    List<byte[]> command = new ArrayList<>(List.of(evalsha, size == 1 ? one : many, UnreadKeys.decimal(5L * size)));
                    for (int i = group.from(); i < group.to(); i++) {
                        int follower = graph.follower(post.authorId(), i);
                        command.addAll(List.of(keys.zBytes(follower), keys.hBytes(follower), keys.floorsBytes(follower),
                                keys.liveBytes(follower), keys.changesBytes(follower)));
                    }
                    long second = EntryRecord.second(post.publishedAtMillis());
                    command.addAll(List.of(UnreadKeys.decimal(post.authorId()), UnreadKeys.decimal(post.blogId()),
                            UnreadKeys.decimal(second), EntryRecord.of(second, post.blogId()), cap, userCap));
                    RespCommand.write(out, command);
                    commands++;
                }
            }
        }
        return commands;
    }

    /** The ceiling needs redis-cli: checked before anything starts, so a bench without it fails at once. */
    static void requireRedisCli() {
        try {
            Process probe = new ProcessBuilder("redis-cli", "--version").redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            if (probe.waitFor() == 0) return;
        } catch (IOException e) {
            // reported below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("the ceiling is measured with redis-cli --pipe, and redis-cli is not on PATH"
                + " (Debian: apt-get install redis-tools)");
    }

    @Override
    public void close() throws IOException {
        try (database; databaseStats) {
            database.shared().sync().flushdb(FlushMode.SYNC);
        } finally {
            Files.deleteIfExists(commands);
        }
    }
}
