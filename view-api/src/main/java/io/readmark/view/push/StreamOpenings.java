package io.readmark.view.push;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How fast this instance starts streams: a token bucket of {@link StreamSettings#opensPerSecond} a second, holding at
 * most one second's worth. A start's Redis work (subscribe, live key, memberships, snapshot) waits for its token, so
 * every stream of an instance reconnecting at once after a restart reaches Redis at that rate, not all together. A
 * start whose token is due within {@link #MAX_WAIT} waits for it; a later one is refused at once and reserves nothing.
 */
final class StreamOpenings {

    /** The longest a start waits for its token: a storm is smoothed, yet no request waits long holding its connection. */
    static final Duration MAX_WAIT = Duration.ofSeconds(1);

    private final long nanosPerToken;
    private final long burstNanos;
    private final LongSupplier nanoTime;
    /** When the bucket is full again, each token taken having pushed it one interval on (GCRA); guarded by this. */
    private long full;

    StreamOpenings(int perSecond, LongSupplier nanoTime) {
        this.nanosPerToken = Duration.ofSeconds(1).toNanos() / perSecond;
        this.burstNanos = Duration.ofSeconds(1).toNanos();
        this.nanoTime = nanoTime;
        this.full = nanoTime.getAsLong();
    }

    /**
     * Takes a token: the nanoseconds to wait before using it (0 for at once), or -1 when none is due within
     * {@link #MAX_WAIT}, and none was taken.
     */
    synchronized long reserve() {
        long now = nanoTime.getAsLong();
        // A bucket idle for a while holds at most a second's worth of tokens.
        long after = Math.max(full, now) + nanosPerToken;
        long wait = Math.max(0, after - now - burstNanos);
        if (wait > MAX_WAIT.toNanos()) return -1;
        full = after;
        return wait;
    }
}
