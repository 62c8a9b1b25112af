package io.readmark.bench;

import io.lettuce.core.RedisURI;
import io.readmark.store.MergedMember;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import io.readmark.store.UnreadLimits;
import io.readmark.store.UnreadScript;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redis alone, driven by a C client: the product's delivery script for every (post, follower) pair of the workload,
 * written once as RESP to a file and sent by {@code redis-cli --pipe} (Redis's mass-insertion mode: it writes
 * without waiting and reads the replies as they come) into a database of its own. No JVM, Kafka or RocksDB is on
 * that path, and the client needs a small fraction of the CPU a JVM client needs, so what Redis absorbs this way
 * bounds what the pipeline can reach on the same machine. Each run starts from an empty database, and is verified
 * by counting the deliveries visible in it.
 */
final class CeilingPhase implements AutoCloseable {

    record Result(long deliveries, double seconds, CpuUsage cpu) implements WriteMeasurement {
    }

    /** The ceiling's database: apart from the product's (0), so it can be emptied between runs with FLUSHDB. */
    static final int DATABASE = 1;
    static final String PREFIX = "ceiling";
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final Pattern SUMMARY = Pattern.compile("errors: (\\d+), replies: (\\d+)");

    private final Path commands;
    private final String host;
    private final int port;
    private final RedisConnections database;
    private final RedisStats databaseStats;
    private final Workload workload;

    private CeilingPhase(Path commands, String host, int port, RedisConnections database, Workload workload) {
        this.commands = commands;
        this.host = host;
        this.port = port;
        this.database = database;
        this.databaseStats = new RedisStats(database);
        this.workload = workload;
    }

    /** Writes the workload's commands to a temporary file; fails at once if {@code redis-cli} is not installed. */
    static CeilingPhase prepare(String redisUrl, RedisConnections redis, Workload workload, PrintStream err) throws IOException {
        requireRedisCli();
        RedisURI uri = RedisURI.create(redisUrl);
        String sha = redis.shared().sync().scriptLoad(UnreadScript.DELIVER.body()); // the script cache serves every database
        Path file = Files.createTempFile("readmark-ceiling-", ".resp");
        try {
            long started = System.nanoTime();
            writeCommands(file, sha, workload);
            err.printf("ceiling: %,d commands (%,d MB) written in %.1f s%n", workload.deliveries(), Files.size(file) >> 20,
                    (System.nanoTime() - started) / 1e9);
            RedisConnections database = RedisConnections.connect(
                    "redis://" + uri.getHost() + ":" + uri.getPort() + "/" + DATABASE, Duration.ofSeconds(60), false);
            return new CeilingPhase(file, uri.getHost(), uri.getPort(), database, workload);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** One run on an empty ceiling database; {@code stats} (any database: INFO is server-wide) meters the CPU. */
    Result run(RedisStats stats, PrintStream err) throws IOException, InterruptedException {
        database.shared().sync().flushdb(io.lettuce.core.FlushMode.SYNC);
        CpuUsage.Meter cpu = CpuUsage.start(stats);
        long start = System.nanoTime();
        Process client = new ProcessBuilder("redis-cli", "-h", host, "-p", Integer.toString(port), "-n", Integer.toString(DATABASE), "--pipe")
                .redirectInput(commands.toFile()).redirectErrorStream(true).start();
        String output;
        try (ProgressBar bar = new ProgressBar(err, "ceiling", workload.deliveries(), "deliveries (approx.)")) {
            long callsBefore = stats.scriptCalls();
            while (!client.waitFor(100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() - start > TIMEOUT.toNanos()) {
                    client.destroyForcibly();
                    throw new IllegalStateException("ceiling: redis-cli not done within " + TIMEOUT);
                }
                bar.update(Math.min(workload.deliveries(), stats.scriptCalls() - callsBefore));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            CpuUsage usage = cpu.stop();
            output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            requireEveryReply(output, client.exitValue(), workload.deliveries());
            long visible = databaseStats.visibleDeliveries(new UnreadKeys(PREFIX), 1, workload.graph().users());
            if (visible != workload.deliveries()) {
                throw new IllegalStateException("ceiling: " + visible + " deliveries visible, expected " + workload.deliveries());
            }
            bar.update(visible);
            return new Result(visible, seconds, usage);
        }
    }

    /** Throws unless redis-cli reported {@code expected} replies and no error. */
    static void requireEveryReply(String output, int exitCode, long expected) {
        Matcher summary = SUMMARY.matcher(output);
        if (exitCode != 0 || !summary.find() || Long.parseLong(summary.group(1)) != 0 || Long.parseLong(summary.group(2)) != expected) {
            throw new IllegalStateException("ceiling: redis-cli --pipe exited " + exitCode + ": " + output.strip());
        }
    }

    /** EVALSHA deliver.lua, with the product's keys and arguments, for every (post, follower) pair, as RESP. */
    static void writeCommands(Path file, String sha, Workload workload) throws IOException {
        UnreadKeys keys = new UnreadKeys(PREFIX);
        byte[] cap = UnreadKeys.decimal(UnreadLimits.DEFAULTS.maxUnreadPerAuthor());
        byte[] evalsha = "EVALSHA".getBytes(StandardCharsets.US_ASCII);
        byte[] script = sha.getBytes(StandardCharsets.US_ASCII);
        byte[] keyCount = UnreadKeys.decimal(7);
        PowerLawGraph graph = workload.graph();
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (Workload.Post post : workload.posts()) {
                byte[] author = UnreadKeys.decimal(post.authorId());
                byte[] blog = UnreadKeys.decimal(post.blogId());
                byte[] publishedAt = UnreadKeys.decimal(post.publishedAtMillis());
                byte[] member = MergedMember.of(post.authorId(), post.blogId());
                for (int i = 0; i < graph.followerCount(post.authorId()); i++) {
                    int follower = graph.follower(post.authorId(), i);
                    writeCommand(out, List.of(evalsha, script, keyCount,
                            keys.unreadBytes(follower, post.authorId()), keys.countsBytes(follower), keys.marksBytes(follower),
                            keys.floorsBytes(follower), keys.mergedBytes(follower), keys.liveBytes(follower),
                            keys.changesBytes(follower), author, blog, publishedAt, cap, member));
                }
            }
        }
    }

    /** One command as a RESP array of bulk strings. */
    static void writeCommand(OutputStream out, List<byte[]> arguments) throws IOException {
        out.write(('*' + Integer.toString(arguments.size()) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] argument : arguments) {
            out.write(('$' + Integer.toString(argument.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(argument);
            out.write('\r');
            out.write('\n');
        }
    }

    private static void requireRedisCli() {
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
        try {
            database.shared().sync().flushdb(io.lettuce.core.FlushMode.SYNC);
        } finally {
            databaseStats.close();
            database.close();
            Files.deleteIfExists(commands);
        }
    }
}
