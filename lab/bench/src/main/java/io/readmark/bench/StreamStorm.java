package io.readmark.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The reconnect storm of the stream load: a {@link StreamHolders} JVM that reconnects as an EventSource does holds
 * {@code count} streams; the view API is closed and started again on its port, and every stream comes back. Until
 * they have, a reader asks for counts at a steady rate (its {@code 5xx} and refused connections counted) and Redis's
 * commands are counted every 100 ms (the busiest second against the rate before the restart).
 */
final class StreamStorm {

    /** The view API under test, which the storm restarts. */
    interface View {
        int port();

        /** Closes it and starts it again on the same port. */
        void restart();

        /** Its streams closed or refused so far, by reason. */
        Map<String, Long> dropped();
    }

    record Result(int streams, int opened, long back, double allBackSeconds, long reads, long reads5xx, long readsRefused,
                  double redisOpsBefore, double redisOpsPeak, Map<String, Long> droppedByReason) {
    }

    private static final int READS_PER_SECOND = 200;
    private static final Duration SAMPLE = Duration.ofMillis(100);

    private final CompletableFuture<String> opened = new CompletableFuture<>();
    private final AtomicLong back = new AtomicLong();
    private final AtomicLong lastBackNanos = new AtomicLong();

    private StreamStorm() {
    }

    static Result run(int count, long firstUser, View view, RedisStats stats, PrintStream err) throws Exception {
        return new StreamStorm().measure(count, firstUser, view, stats, err);
    }

    private Result measure(int count, long firstUser, View view, RedisStats stats, PrintStream err) throws Exception {
        Process holders = StreamHolders.launch(view.port(), firstUser, count, true);
        Thread.ofPlatform().daemon().name("stream-storm-out").start(() -> read(holders));
        try {
            int streams = Integer.parseInt(opened.get(60 + count / 50, TimeUnit.SECONDS).split(" ")[1]);
            err.printf("streams storm: %,d open; restarting the view API%n", streams);
            double before = opsPerSecond(stats, Duration.ofSeconds(2));
            AtomicBoolean stormOver = new AtomicBoolean();
            long[] reads = new long[3]; // answered, 5xx, refused connections
            Thread reader = Thread.ofPlatform().daemon().name("stream-storm-reads")
                    .start(() -> readCounts(view.port(), firstUser, streams, stormOver, reads));
            double[] peak = {0};
            Thread sampler = Thread.ofPlatform().daemon().name("stream-storm-redis")
                    .start(() -> peakOps(stats, stormOver, peak));
            long restarted = System.nanoTime();
            view.restart();
            long end = restarted + Duration.ofSeconds(120).toNanos();
            while (back.get() < streams && System.nanoTime() < end) LockSupport.parkNanos(SAMPLE.toNanos()); // the holders' progress
            double allBack = back.get() < streams ? Double.NaN : (lastBackNanos.get() - restarted) / 1e9;
            stormOver.set(true);
            reader.join();
            sampler.join();
            return new Result(count, streams, back.get(), allBack, reads[0] + reads[1], reads[1], reads[2], before, peak[0],
                    view.dropped()); // the new instance's counts, which began at zero with it
        } finally {
            holders.getOutputStream().close();
            holders.waitFor(30, TimeUnit.SECONDS);
            holders.destroyForcibly();
        }
    }

    private void read(Process process) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("opened ")) opened.complete(line);
                if (line.startsWith("back ")) {
                    back.incrementAndGet();
                    lastBackNanos.set(System.nanoTime());
                }
            }
        } catch (IOException e) {
            // The holders are gone: the storm waits out its limit and says how many came back.
        }
        opened.complete("opened 0 0 0");
    }

    /** Counts reads of the streamed users at a steady rate: answered (by status) or refused at connect. */
    private static void readCounts(int port, long firstUser, int users, AtomicBoolean over, long[] reads) {
        long period = TimeUnit.SECONDS.toNanos(1) / READS_PER_SECOND;
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            long start = System.nanoTime();
            for (long i = 0; !over.get(); i++) {
                LockSupport.parkNanos(start + i * period - System.nanoTime()); // pacing of a steady reader
                URI uri = URI.create("http://127.0.0.1:" + port + "/v1/users/" + (firstUser + i % Math.max(1, users)) + "/unread");
                try {
                    int status = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode();
                    reads[status >= 500 ? 1 : 0]++;
                } catch (IOException e) {
                    reads[2]++; // down, between close and start
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The most commands Redis processed in any second (sampled every 100 ms, over the last ten samples). */
    private static void peakOps(RedisStats stats, AtomicBoolean over, double[] peak) {
        ArrayDeque<long[]> samples = new ArrayDeque<>(); // {commands, nanoTime}
        samples.add(new long[]{stats.infoLong("stats", "total_commands_processed"), System.nanoTime()});
        while (!over.get()) {
            LockSupport.parkNanos(SAMPLE.toNanos()); // a sampling period
            long[] now = {stats.infoLong("stats", "total_commands_processed"), System.nanoTime()};
            if (samples.size() == 10) samples.removeFirst();
            samples.add(now);
            long[] first = samples.getFirst();
            peak[0] = Math.max(peak[0], (now[0] - first[0]) * 1e9 / Math.max(1, now[1] - first[1]));
        }
    }

    private static double opsPerSecond(RedisStats stats, Duration window) {
        long before = stats.infoLong("stats", "total_commands_processed"), at = System.nanoTime();
        LockSupport.parkNanos(window.toNanos()); // a measurement window
        return (stats.infoLong("stats", "total_commands_processed") - before) * 1e9 / (System.nanoTime() - at);
    }
}
