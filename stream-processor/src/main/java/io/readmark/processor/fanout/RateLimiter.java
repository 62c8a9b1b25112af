package io.readmark.processor.fanout;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A token bucket of deliveries per second shared by the fan-out worker threads of one process: big-V fan-outs
 * take at most this share of Redis, whatever their size, and normal authors keep the rest.
 */
public final class RateLimiter {

    private final double permitsPerNano;
    private final double maxBurst;
    private final LongSupplier nanoTime;
    private final LongConsumer parkNanos;
    private double available;
    private long refilledAt;

    public RateLimiter(int permitsPerSecond) {
        this(permitsPerSecond, System::nanoTime, LockSupport::parkNanos);
    }

    /**
     * @param nanoTime  the clock, as {@link System#nanoTime()}
     * @param parkNanos waits the given nanoseconds, as {@link LockSupport#parkNanos(long)}
     */
    RateLimiter(int permitsPerSecond, LongSupplier nanoTime, LongConsumer parkNanos) {
        if (permitsPerSecond <= 0) throw new IllegalArgumentException("rate must be positive");
        this.permitsPerNano = permitsPerSecond / 1e9;
        this.maxBurst = Math.max(1, permitsPerSecond / 10.0); // at most 100 ms worth at once
        this.available = maxBurst;
        this.nanoTime = nanoTime;
        this.parkNanos = parkNanos;
        this.refilledAt = nanoTime.getAsLong();
    }

    /** Blocks until {@code permits} may be used; a request larger than the burst waits for the whole amount. */
    void acquire(int permits) {
        long waitNanos;
        synchronized (this) {
            refill();
            available -= permits;
            waitNanos = available >= 0 ? 0 : (long) (-available / permitsPerNano);
        }
        if (waitNanos > 0) parkNanos.accept(waitNanos);
    }

    private void refill() {
        long now = nanoTime.getAsLong();
        available = Math.min(maxBurst, available + (now - refilledAt) * permitsPerNano);
        refilledAt = now;
    }
}
