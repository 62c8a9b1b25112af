package io.readmark.bench;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Closed-loop load from a fixed number of clients, each on its own platform thread: every client sends its next
 * request as soon as the previous one answered. A warm-up runs first and is not counted; then requests are counted
 * and timed for the given duration. Any failed request fails the measurement rather than flattering it, and so does
 * a request still unanswered {@link #STUCK_AFTER} after the measurement ended: its client is closed.
 */
final class ConcurrentLoad {

    /** Clients may wait without a timeout of their own (cheaper per request); a server that hangs is caught here. */
    static final Duration STUCK_AFTER = Duration.ofSeconds(30);
    /**
     * The window is extended until this many requests completed in it: a request slower than the window (seed 000's
     * scan of a full run's keyspace on a slow host) would otherwise measure nothing, and a rate of zero.
     */
    static final int MIN_REQUESTS = 3;

    /** One client; {@link #call(long)} performs one request for the given user and throws if it failed. */
    interface Client extends AutoCloseable {
        void call(long userId) throws Exception;

        @Override
        default void close() throws java.io.IOException {
        }
    }

    interface ClientFactory {
        Client open() throws Exception;
    }

    record Result(long requests, double seconds, Histogram latencyMicros) {
        double perSecond() {
            return requests / seconds;
        }

        double p99Millis() {
            return latencyMicros.getValueAtPercentile(99) / 1000.0;
        }

        /** Several windows of one load as one: their requests and seconds added, their latencies merged. */
        static Result merge(List<Result> windows) {
            Histogram merged = latencies();
            windows.forEach(window -> merged.add(window.latencyMicros()));
            return new Result(windows.stream().mapToLong(Result::requests).sum(),
                    windows.stream().mapToDouble(Result::seconds).sum(), merged);
        }
    }

    private ConcurrentLoad() {
    }

    static Result run(String label, int clients, Duration warmup, Duration duration, int users, long seed,
                      ClientFactory factory, PrintStream err) throws InterruptedException {
        return run(label, clients, warmup, duration, users, seed, factory, err, STUCK_AFTER);
    }

    static Result run(String label, int clients, Duration warmup, Duration duration, int users, long seed,
                      ClientFactory factory, PrintStream err, Duration stuckAfter) throws InterruptedException {
        long measureFrom = System.nanoTime() + warmup.toNanos();
        long measureUntil = measureFrom + duration.toNanos();
        LongAdder requests = new LongAdder();
        // Moves past measureUntil only while the window is extended, under its own lock: off the per-request path.
        AtomicLong windowEnd = new AtomicLong(measureUntil);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Histogram> histograms = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<Client> opened = new CopyOnWriteArrayList<>();
        for (int c = 0; c < clients; c++) {
            Histogram histogram = latencies();
            histograms.add(histogram);
            SplittableRandom random = new SplittableRandom(seed + c);
            threads.add(Thread.ofPlatform().name(label + "-client-" + c).start(() -> {
                try (Client client = factory.open()) {
                    opened.add(client);
                    for (long now = System.nanoTime(); (now < measureUntil || requests.sum() < MIN_REQUESTS) && failure.get() == null; ) {
                        long userId = 1 + random.nextInt(users);
                        client.call(userId);
                        long after = System.nanoTime();
                        long micros = Math.clamp((after - now) / 1_000, 1, histogram.getHighestTrackableValue());
                        // Completions inside the window count, wherever they started: unbiased even for slow calls.
                        if (after >= measureFrom && after <= measureUntil) {
                            histogram.recordValue(micros);
                            requests.increment();
                        } else if (after > measureUntil) {
                            synchronized (windowEnd) {
                                if (requests.sum() < MIN_REQUESTS) {
                                    histogram.recordValue(micros);
                                    requests.increment();
                                    windowEnd.set(after);
                                }
                            }
                        }
                        now = after;
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        long total = warmup.plus(duration).toMillis();
        long start = System.nanoTime();
        try (ProgressBar bar = new ProgressBar(err, label, total, "ms (time-boxed)")) {
            boolean closed = false;
            for (Thread thread : threads) {
                while (!thread.join(Duration.ofMillis(100))) {
                    bar.update(Math.min(total, (System.nanoTime() - start) / 1_000_000));
                    if (!closed && System.nanoTime() > windowEnd.get() + stuckAfter.toNanos()) {
                        closed = true;
                        failure.compareAndSet(null, new IllegalStateException("a request was still unanswered "
                                + stuckAfter.toMillis() + " ms after the measurement ended"));
                        closeAll(opened); // wakes the threads blocked in a read
                    }
                }
            }
            bar.update(total);
        }
        if (failure.get() != null) throw new IllegalStateException(label + ": a request failed", failure.get());
        Histogram merged = latencies();
        histograms.forEach(merged::add);
        return new Result(requests.sum(), (windowEnd.get() - measureFrom) / 1e9, merged);
    }

    /** Latencies in µs up to a minute, to three significant digits. */
    private static Histogram latencies() {
        return new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
    }

    private static void closeAll(List<Client> clients) {
        for (Client client : clients) {
            try {
                client.close();
            } catch (Exception e) {
                // The measurement has failed already; the first failure is the one reported.
            }
        }
    }
}
