package io.readmark.view;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Stops calling a dependency that keeps failing. After {@code failureThreshold} consecutive failures the circuit
 * opens and every call is refused at once for {@code openFor}; then one trial call is let through (half-open), and
 * its outcome closes the circuit or opens it for another {@code openFor}. While Redis hangs, this turns requests that
 * would each wait out the command timeout into immediate refusals. Thread-safe.
 */
final class CircuitBreaker {

    enum State { CLOSED, OPEN, HALF_OPEN }

    private static final Logger log = LoggerFactory.getLogger(CircuitBreaker.class);

    private final String name;
    private final int failureThreshold;
    private final long openNanos;
    private final LongSupplier nanoClock;
    private State state = State.CLOSED;
    private int consecutiveFailures;
    private long openedAt;
    private boolean trialInFlight;

    /**
     * @param name      what the circuit protects, for the log
     * @param nanoClock monotonic time in nanoseconds, {@code System::nanoTime} outside tests
     */
    CircuitBreaker(String name, int failureThreshold, Duration openFor, LongSupplier nanoClock) {
        if (failureThreshold < 1) throw new IllegalArgumentException("failureThreshold must be at least 1");
        if (!openFor.isPositive()) throw new IllegalArgumentException("openFor must be positive");
        this.name = name;
        this.failureThreshold = failureThreshold;
        this.openNanos = openFor.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * Whether a call may go ahead now. Every call let through must be followed by exactly one of
     * {@link #onSuccess()}, {@link #onFailure()} or {@link #release()}.
     */
    synchronized boolean tryAcquire() {
        switch (state) {
            case CLOSED -> {
                return true;
            }
            case OPEN -> {
                if (nanoClock.getAsLong() - openedAt < openNanos) return false;
                state = State.HALF_OPEN;
                trialInFlight = true;
                return true;
            }
            default -> {
                if (trialInFlight) return false;
                trialInFlight = true;
                return true;
            }
        }
    }

    /** The call got its answer: the dependency works. */
    synchronized void onSuccess() {
        if (state == State.OPEN) return; // a call that started before the circuit opened proves too little
        if (state == State.HALF_OPEN) log.info("{} answered the trial call: circuit closed", name);
        state = State.CLOSED;
        consecutiveFailures = 0;
        trialInFlight = false;
    }

    /** The dependency failed the call. */
    synchronized void onFailure() {
        switch (state) {
            case CLOSED -> {
                if (++consecutiveFailures >= failureThreshold) {
                    open();
                    log.warn("{} failed {} consecutive calls: circuit open, calls refused for {} ms",
                            name, consecutiveFailures, Duration.ofNanos(openNanos).toMillis());
                }
            }
            case HALF_OPEN -> {
                open();
                log.warn("{} failed the trial call: circuit open again for {} ms", name, Duration.ofNanos(openNanos).toMillis());
            }
            case OPEN -> {
                // a call that started before the circuit opened; the open period is not extended for it
            }
        }
    }

    /** The call ended without telling anything about the dependency (it failed before reaching it). */
    synchronized void release() {
        if (state == State.HALF_OPEN) trialInFlight = false;
    }

    /** How long calls will still be refused before a trial is let through; zero unless open. */
    synchronized Duration untilTrial() {
        if (state != State.OPEN) return Duration.ZERO;
        return Duration.ofNanos(Math.max(0, openNanos - (nanoClock.getAsLong() - openedAt)));
    }

    synchronized State state() {
        return state;
    }

    private void open() {
        state = State.OPEN;
        openedAt = nanoClock.getAsLong();
        trialInFlight = false;
    }
}
