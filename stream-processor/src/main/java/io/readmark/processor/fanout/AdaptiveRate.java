package io.readmark.processor.fanout;

import java.time.Duration;

/**
 * Moves the fan-out worker's rate with what Redis has to spare. Redis runs one command at a time, so a command from
 * anyone waits behind whatever it is busy with: a PING's round trip rises with the load the fan-out adds, as a
 * normal author's delivery does. While the round trip (smoothed) stays within the tolerance of the lowest seen
 * lately, the rate grows by a step; above it, the rate is cut by a factor — additive increase, multiplicative
 * decrease, as TCP's congestion control — between the configured minimum and maximum. The lowest round trip is
 * taken over a sliding window, so the baseline follows the machine when its idle latency drifts.
 */
public final class AdaptiveRate {

    /** The rate the worker keeps between: it never stops (minimum) and never exceeds what it is allowed (maximum). */
    public record Limits(int minPerSecond, int maxPerSecond, Duration tolerance) {

        public static final Limits DEFAULTS = new Limits(5_000, 200_000, Duration.ofNanos(500_000));

        public Limits {
            if (minPerSecond <= 0 || maxPerSecond < minPerSecond) {
                throw new IllegalArgumentException("fan-out rates need 0 < minimum <= maximum, were " + minPerSecond + " and " + maxPerSecond);
            }
            if (tolerance.isNegative() || tolerance.isZero()) throw new IllegalArgumentException("the latency tolerance must be positive");
        }
    }

    /** Of the step: the maximum rate is reached from the minimum in this many uncongested samples. */
    private static final int SAMPLES_TO_MAXIMUM = 100;
    private static final double DECREASE = 0.7;
    private static final double SMOOTHING = 0.25;
    /** The baseline is the lowest round trip of the last {@code WINDOW_SLOTS} slots of this length. */
    private static final long SLOT_NANOS = Duration.ofSeconds(1).toNanos();
    private static final int WINDOW_SLOTS = 10;

    private final RateLimiter limiter;
    private final Limits limits;
    private final double step;
    private final long[] slotMinimum = new long[WINDOW_SLOTS];
    private final long[] slotStart = new long[WINDOW_SLOTS];
    private double rate;
    private double smoothed = Double.NaN;

    public AdaptiveRate(RateLimiter limiter, Limits limits) {
        this.limiter = limiter;
        this.limits = limits;
        this.step = Math.max(1, (limits.maxPerSecond() - limits.minPerSecond()) / (double) SAMPLES_TO_MAXIMUM);
        this.rate = limits.minPerSecond(); // start low: nothing is known yet of what Redis has to spare
        java.util.Arrays.fill(slotStart, Long.MIN_VALUE);
        limiter.setRate(rate);
    }

    /** One round trip, measured at {@code nowNanos}; returns the new rate. */
    public synchronized double observe(long roundTripNanos, long nowNanos) {
        long baseline = baseline(roundTripNanos, nowNanos);
        smoothed = Double.isNaN(smoothed) ? roundTripNanos : smoothed + SMOOTHING * (roundTripNanos - smoothed);
        return adjust(smoothed > baseline + limits.tolerance().toNanos());
    }

    /** A round trip that failed (Redis unreachable or timed out): whatever the cause, not the time to add load. */
    public synchronized double observeFailure() {
        return adjust(true);
    }

    private double adjust(boolean congested) {
        rate = congested ? Math.max(limits.minPerSecond(), rate * DECREASE) : Math.min(limits.maxPerSecond(), rate + step);
        limiter.setRate(rate);
        return rate;
    }

    public synchronized double rate() {
        return rate;
    }

    /** The token bucket whose rate this sets: the worker takes its permits there. */
    public RateLimiter limiter() {
        return limiter;
    }

    /** Records the sample in its slot and returns the lowest round trip of the window. */
    private long baseline(long roundTripNanos, long nowNanos) {
        long slotOf = Math.floorDiv(nowNanos, SLOT_NANOS);
        int slot = (int) Math.floorMod(slotOf, WINDOW_SLOTS);
        if (slotStart[slot] != slotOf) {
            slotStart[slot] = slotOf;
            slotMinimum[slot] = roundTripNanos;
        } else {
            slotMinimum[slot] = Math.min(slotMinimum[slot], roundTripNanos);
        }
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < WINDOW_SLOTS; i++) {
            if (slotStart[i] > slotOf - WINDOW_SLOTS) lowest = Math.min(lowest, slotMinimum[i]);
        }
        return lowest;
    }
}
