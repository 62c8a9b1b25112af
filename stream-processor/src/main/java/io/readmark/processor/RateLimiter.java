package io.readmark.processor;

import java.util.concurrent.locks.LockSupport;

/**
 * A token bucket of deliveries per second shared by the fan-out worker threads of one process: big-V fan-outs
 * take at most this share of Redis, whatever their size, and normal authors keep the rest.
 */
final class RateLimiter {

    private final double permitsPerNano;
    private final double maxBurst;
    private double available;
    private long refilledAt = System.nanoTime();

    RateLimiter(int permitsPerSecond) {
        if (permitsPerSecond <= 0) throw new IllegalArgumentException("rate must be positive");
        this.permitsPerNano = permitsPerSecond / 1e9;
        this.maxBurst = Math.max(1, permitsPerSecond / 10.0); // at most 100 ms worth at once
        this.available = maxBurst;
    }

    /** Blocks until {@code permits} may be used; a request larger than the burst waits for the whole amount. */
    void acquire(int permits) {
        long waitNanos;
        synchronized (this) {
            refill();
            available -= permits;
            waitNanos = available >= 0 ? 0 : (long) (-available / permitsPerNano);
        }
        if (waitNanos > 0) LockSupport.parkNanos(waitNanos);
    }

    private void refill() {
        long now = System.nanoTime();
        available = Math.min(maxBurst, available + (now - refilledAt) * permitsPerNano);
        refilledAt = now;
    }
}
