package io.readmark.bench;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One round of the stream load phase: {@code count} streams opened by a {@link StreamHolders} JVM on the view API of
 * this one, held idle, then changed at a steady rate for a known share of their users. What each stream costs is the
 * difference against the moment before they opened, divided by the streams that opened; a push's latency runs from
 * just before its change's script was sent to the event read by the client (the same machine's clock).
 */
final class StreamRound {

    /** What one round measured; per-stream figures over the streams opened. */
    record Result(int requested, int opened, int refused, String error, double setupPerSecond, double heapBytes, double rssBytes,
                  double redisBytes, long redisClients, double channelsPerStream, double idleJavaMicros, double idleRedisMicros,
                  long pushes, long missing, double p50Millis, double p99Millis, double javaMicrosPerPush,
                  double redisMicrosPerPush, int endedByServer, Map<String, Long> droppedByReason, String disturbance,
                  Burst burst) {
    }

    /**
     * One post to every stream's user at once, delivered as the processor does (scripts of 100 followers): how long
     * the deliveries took, push latency from the first delivery sent, and the last push after the last delivery.
     */
    record Burst(int users, double deliveriesMillis, double p50Millis, double p99Millis, double lastAfterDeliveriesMillis,
                 long missing) {
    }

    /**
     * The idle cost of the server threads of this JVM and of Redis with no stream open, in cores, which each round's
     * idle window is measured against.
     */
    record Baseline(double serverCores, double redisCores) {
    }

    /**
     * The CPU of one window: the server's threads (the view API's event loops and timer, Lettuce's), Redis, and the
     * holders' JVM. Per-thread time, not the process's: the process also runs the bench, and a stream's idle cost is
     * a few microseconds a second, far below what the JIT or a collector cycle adds to the process in a window.
     */
    record Window(double seconds, double serverCores, double redisCores, double holdersCores, CpuUsage usage) {

        /** Processes outside the bench and its holders took CPU, or the JIT compiled: null if neither. */
        String disturbance() {
            double others = usage.otherCores() - holdersCores;
            if (others > CpuUsage.DISTURBED_OTHER_CORES) return String.format(Locale.ROOT, "other processes (%.2f cores)", others);
            return usage.compiling() ? usage.disturbance() : null;
        }
    }

    private static final long NEVER_AWAIT = Integer.MAX_VALUE;
    private static final long AUTHOR = 1, BURST_AUTHOR = 2;
    /**
     * The burst's blogId, above every change's (i + 1): a user's z holds blogIds across authors, so reusing a change's
     * blogId would find it unread or tombstoned there and push nothing.
     */
    private static final long BURST_BLOG = 1L << 40;

    private final StreamLoadConfig config;
    private final RedisConnections redis;
    private final RedisStats stats;
    private final UnreadKeys keys;
    private final PrintStream err;
    private final Map<Long, long[]> awaited = new ConcurrentHashMap<>(); // user -> {expected total, write µs}
    private final Histogram latencyMicros = new Histogram(3);
    /** Where pushes are recorded: the load's histogram, then the burst's. */
    private volatile Histogram recording = latencyMicros;
    private final AtomicLong lastPushMicros = new AtomicLong();
    /** Each streamed user's blog total as the changes left it: what their next push must say. */
    private final Map<Long, Long> totals = new HashMap<>();
    private final AtomicInteger ended = new AtomicInteger();
    private final CompletableFuture<String> opened = new CompletableFuture<>();
    private final AtomicReference<String> error = new AtomicReference<>();

    StreamRound(StreamLoadConfig config, RedisConnections redis, RedisStats stats, UnreadKeys keys, PrintStream err) {
        this.config = config;
        this.redis = redis;
        this.stats = stats;
        this.keys = keys;
        this.err = err;
    }

    /** @param dropped the view API's streams closed or refused so far, by reason (its metrics) */
    Result run(int count, long firstUser, int port, Baseline baseline, String name, Supplier<Map<String, Long>> dropped)
            throws Exception {
        Map<String, Long> dropped0 = dropped.get();
        long heap0 = heapAfterGc(), rss0 = rss(), memory0 = stats.usedMemory();
        long clients0 = stats.infoLong("clients", "connected_clients"), channels0 = channels();
        Process holders = start(port, firstUser, count);
        try {
            String[] summary = opened.get(60 + count / 50, TimeUnit.SECONDS).split(" ");
            int streams = Integer.parseInt(summary[1]);
            int refused = Integer.parseInt(summary[2]);
            double setup = count / Math.max(1e-3, Long.parseLong(summary[3]) / 1000.0);
            int per = Math.max(1, streams);
            double heap = (heapAfterGc() - heap0) / (double) per, rss = (rss() - rss0) / (double) per;
            double memory = (stats.usedMemory() - memory0) / (double) per;
            long clients = stats.infoLong("clients", "connected_clients") - clients0;
            double channels = (channels() - channels0) / (double) per;
            err.printf("streams %s: %,d open, %,d refused; idle %d s%n", name, streams, refused, config.idle().toSeconds());

            Window idle = PhaseRecording.during(config.jfrDirectory(), "streams-idle-" + count, err,
                    () -> measure(stats, holders, () -> hold(config.idle())));
            double idleJava = (idle.serverCores() - baseline.serverCores()) * 1e6 / per;
            double idleRedis = (idle.redisCores() - baseline.redisCores()) * 1e6 / per;

            int live = (int) Math.max(1, Math.round(streams * config.liveFraction()));
            long pushesBefore = latencyMicros.getTotalCount();
            Window load = measure(stats, holders, () -> {
                change(firstUser, live);
                poll(awaited::isEmpty, Duration.ofSeconds(10));
            });
            long pushes = latencyMicros.getTotalCount() - pushesBefore;
            double perPushJava = pushes == 0 ? 0 : (load.serverCores() - idle.serverCores()) * load.seconds() * 1e6 / pushes;
            double perPushRedis = pushes == 0 ? 0 : (load.redisCores() - idle.redisCores()) * load.seconds() * 1e6 / pushes;
            String disturbance = idle.disturbance() != null ? "idle: " + idle.disturbance()
                    : load.disturbance() != null ? "load: " + load.disturbance() : null;
            long missing = awaited.size();
            Burst burst = burst(firstUser, streams);
            return new Result(count, streams, refused, error.get(), setup, heap, rss, memory, clients, channels, idleJava, idleRedis,
                    pushes, missing, latencyMicros.getValueAtPercentile(50) / 1000.0,
                    latencyMicros.getValueAtPercentile(99) / 1000.0, perPushJava, perPushRedis, ended.get(),
                    since(dropped0, dropped.get()), disturbance, burst);
        } finally {
            holders.getOutputStream().close(); // its stdin ends: it exits, and its streams close
            holders.waitFor(30, TimeUnit.SECONDS);
            holders.destroyForcibly();
            // The next round measures against what is left; a slow close is said, not fatal to this round's figures.
            if (!poll(() -> channels() <= channels0, Duration.ofSeconds(120))) {
                err.printf("streams %s: %,d subscriptions still open 120 s after the clients left%n", name, channels() - channels0);
            }
        }
    }

    static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((reason, count) -> {
            long more = count - before.getOrDefault(reason, 0L);
            if (more > 0) delta.put(reason, more);
        });
        return delta;
    }

    /** Measures the cost of the server threads and Redis with nothing open, over one idle window. */
    static Baseline baseline(StreamLoadConfig config, RedisStats stats) {
        Window idle = measure(stats, null, () -> hold(config.idle()));
        return new Baseline(idle.serverCores(), idle.redisCores());
    }

    private static Window measure(RedisStats stats, Process holders, Runnable work) {
        CpuUsage.Meter meter = CpuUsage.start(stats);
        long server = serverCpuNanos(), holders0 = cpuNanos(holders);
        work.run();
        long serverUsed = serverCpuNanos() - server, holdersUsed = cpuNanos(holders) - holders0;
        CpuUsage usage = meter.stop();
        return new Window(usage.seconds(), serverUsed / 1e9 / usage.seconds(), usage.redisCores(),
                holdersUsed / 1e9 / usage.seconds(), usage);
    }

    /** CPU time of this JVM's server threads: the view API's ({@code view-api-*}) and Lettuce's. */
    private static long serverCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (thread == null) continue;
            String name = thread.getThreadName();
            if (!name.startsWith("view-api") && !name.startsWith("lettuce")) continue;
            long nanos = threads.getThreadCpuTime(thread.getThreadId());
            if (nanos > 0) sum += nanos;
        }
        return sum;
    }

    private static long cpuNanos(Process process) {
        if (process == null) return 0;
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** Open loop at the configured rate over the first {@code live} users, each alternately given a post and reading it. */
    private void change(long firstUser, int live) {
        long period = TimeUnit.SECONDS.toNanos(1) / config.changeRate();
        long changes = config.load().toNanos() / period;
        long clock = System.currentTimeMillis();
        try (RedisConnections.BinaryConnection connection = redis.openBinary()) {
            UnreadWriter writer = new UnreadWriter(connection, keys, UnreadLimits.DEFAULTS, (int) NEVER_AWAIT);
            long start = System.nanoTime();
            for (long i = 0; i < changes; i++) {
                LockSupport.parkNanos(start + i * period - System.nanoTime()); // pacing of an open loop
                long user = firstUser + i % live;
                if (awaited.containsKey(user)) continue; // its last change not pushed yet: one in flight per user
                long total = totals.getOrDefault(user, 0L);
                long expected = total == 0 ? 1 : 0;
                awaited.put(user, new long[]{expected, StreamHolders.epochMicros()});
                // A second apart: a read-all's floor covers its whole second (counters.lua), so a post in that
                // second would stay out and never be pushed.
                clock += 1_000;
                if (total == 0) writer.deliver(user, AUTHOR, i + 1, clock); else writer.readAll(user, AUTHOR, clock);
                writer.flush();
                totals.put(user, expected);
            }
        }
    }

    /** Every streamed user gets one post at once; users whose last change was never pushed are not awaited. */
    private Burst burst(long firstUser, int streams) {
        Set<Long> unsettled = new HashSet<>(awaited.keySet());
        awaited.clear();
        Histogram micros = new Histogram(3);
        recording = micros;
        List<Long> users = new ArrayList<>();
        long start = StreamHolders.epochMicros(), deliveredAt;
        for (long user = firstUser; user < firstUser + streams; user++) {
            users.add(user);
            long total = totals.getOrDefault(user, 0L) + 1;
            totals.put(user, total);
            if (!unsettled.contains(user)) awaited.put(user, new long[]{total, start});
        }
        try (RedisConnections.BinaryConnection connection = redis.openBinary()) {
            UnreadWriter writer = new UnreadWriter(connection, keys, UnreadLimits.DEFAULTS, (int) NEVER_AWAIT);
            writer.deliverToEach(users, BURST_AUTHOR, BURST_BLOG, System.currentTimeMillis());
            writer.flush();
            writer.awaitAcknowledged();
            deliveredAt = StreamHolders.epochMicros();
        }
        poll(awaited::isEmpty, Duration.ofSeconds(30));
        return new Burst(users.size(), (deliveredAt - start) / 1000.0, micros.getValueAtPercentile(50) / 1000.0,
                micros.getValueAtPercentile(99) / 1000.0, (lastPushMicros.get() - deliveredAt) / 1000.0, awaited.size());
    }

    private Process start(int port, long firstUser, int count) throws IOException {
        Process process = StreamHolders.launch(port, firstUser, count, false);
        Thread.ofPlatform().daemon().name("stream-holders-out").start(() -> read(process));
        return process;
    }

    private void read(Process process) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String[] parts = line.split(" ", 2);
                switch (parts[0]) {
                    case "opened" -> opened.complete(line);
                    case "error" -> error.compareAndSet(null, parts[1]);
                    case "ended" -> ended.incrementAndGet();
                    case "push" -> pushed(line.split(" "));
                    default -> { }
                }
            }
        } catch (IOException e) {
            // The holders are gone: a round still waiting for them times out and says so.
        }
        opened.complete("opened 0 0 0");
    }

    private void pushed(String[] push) {
        long user = Long.parseLong(push[1]);
        long[] change = awaited.get(user);
        if (change == null || change[0] != Long.parseLong(push[2])) return;
        long at = Long.parseLong(push[3]);
        Histogram into = recording;
        synchronized (into) {
            into.recordValue(Math.max(0, at - change[1]));
        }
        lastPushMicros.accumulateAndGet(at, Math::max);
        awaited.remove(user);
    }

    /** A measurement window: nothing is awaited, the time itself is measured. */
    private static void hold(Duration window) {
        long end = System.nanoTime() + window.toNanos();
        for (long left = window.toNanos(); left > 0; left = end - System.nanoTime()) LockSupport.parkNanos(left);
    }

    /** Polls another process's progress until it holds; false if it did not within {@code limit}. */
    private static boolean poll(BooleanSupplier condition, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) return false;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return true;
    }

    /** Channels subscribed, sharded (named {@code pubsubshard_channels} by Redis 7.0) or not. */
    private long channels() {
        return stats.infoLong("stats", "pubsubshard_channels") + stats.infoLong("stats", "pubsub_channels");
    }

    private static long heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** This process's resident memory (Linux), in bytes; 0 elsewhere. */
    private static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: no figure.
        }
        return 0;
    }
}
