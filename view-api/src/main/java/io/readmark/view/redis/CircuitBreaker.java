package io.readmark.view.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Stops calling a dependency that keeps failing. After {@code failureThreshold} consecutive failures the circuit
 * opens and every call is refused at once for {@code openFor}; then one trial call is let through (half-open), and
 * its outcome closes the circuit or opens it for another {@code openFor}. While Redis hangs, this turns requests that
 * would each wait out the command timeout into immediate refusals. Thread-safe.
 * <p>
 * A breaker shared by all callers can require the failures to come from {@code requiredSources} different callers
 * before it opens: then one caller whose own requests keep failing (too slow, say) cannot open it for everyone, while
 * a dependency that is really down fails every caller and opens it as before.
 */
public final class CircuitBreaker {

    enum State { CLOSED, OPEN, HALF_OPEN }

    private static final Logger log = LoggerFactory.getLogger(CircuitBreaker.class);

    private final String name;
    private final int failureThreshold;
    private final long openNanos;
    private final LongSupplier nanoClock;
    private final int requiredSources;
    private State state = State.CLOSED;
    private int consecutiveFailures;
    private Object firstSource;
    private boolean severalSources;
    private long openedAt;
    private boolean trialInFlight;

    /**
     * @param name      what the circuit protects, for the log
     * @param nanoClock monotonic time in nanoseconds, {@code System::nanoTime} outside tests
     */
    public CircuitBreaker(String name, int failureThreshold, Duration openFor, LongSupplier nanoClock) {
        this(name, failureThreshold, openFor, nanoClock, 1);
    }

    /** @param requiredSources how many different callers the consecutive failures must come from (1 or 2) */
    public CircuitBreaker(String name, int failureThreshold, Duration openFor, LongSupplier nanoClock, int requiredSources) {
        if (failureThreshold < 1) throw new IllegalArgumentException("failureThreshold must be at least 1");
        if (requiredSources < 1 || requiredSources > 2) throw new IllegalArgumentException("requiredSources must be 1 or 2");
        this.requiredSources = requiredSources;
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
        resetFailures();
        trialInFlight = false;
    }

    /** The dependency failed the call in a way that concerns every caller (it is unreachable, say). */
    synchronized void onFailure() {
        onFailure(null);
    }

    /**
     * The dependency failed a call of {@code source}; {@code null} when the failure concerns every caller. Only
     * failures of several sources open a breaker that requires two.
     */
    synchronized void onFailure(Object source) {
        switch (state) {
            case CLOSED -> {
                if (source == null) {
                    severalSources = true;
                } else if (firstSource == null) {
                    firstSource = source;
                } else if (!firstSource.equals(source)) {
                    severalSources = true;
                }
                if (++consecutiveFailures >= failureThreshold && (requiredSources == 1 || severalSources)) {
                    log.warn("{} failed {} consecutive calls: circuit open, calls refused for {} ms",
                            name, consecutiveFailures, Duration.ofNanos(openNanos).toMillis());
                    open();
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
        resetFailures();
    }

    private void resetFailures() {
        consecutiveFailures = 0;
        firstSource = null;
        severalSources = false;
    }
}
