package io.readmark.view.redis;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A circuit breaker per user whose reads fail, so that a user whose requests keep failing (too heavy, or hitting a
 * broken key) is answered 503 at once without costing Redis more, while every other user is served. Only users with
 * recent failures have one, at most {@link #MAX_TRACKED}: beyond that, new users go untracked rather than grow the
 * heap, and the shared breaker still needs failures of several users to open.
 */
public final class UserBreakers {

    static final int MAX_TRACKED = 10_000;

    private final int failureThreshold;
    private final Duration openFor;
    private final LongSupplier nanoClock;
    private final Map<Long, CircuitBreaker> breakers = new ConcurrentHashMap<>();

    public UserBreakers(int failureThreshold, Duration openFor, LongSupplier nanoClock) {
        this.failureThreshold = failureThreshold;
        this.openFor = openFor;
        this.nanoClock = nanoClock;
    }

    /** Whether this user's call may go ahead; one of the on* methods must follow when it did. */
    boolean tryAcquire(long userId) {
        CircuitBreaker breaker = breakers.get(userId);
        return breaker == null || breaker.tryAcquire();
    }

    Duration untilTrial(long userId) {
        CircuitBreaker breaker = breakers.get(userId);
        return breaker == null ? Duration.ZERO : breaker.untilTrial();
    }

    void onSuccess(long userId) {
        CircuitBreaker breaker = breakers.get(userId);
        if (breaker == null) return;
        breaker.onSuccess();
        if (breaker.state() == CircuitBreaker.State.CLOSED) breakers.remove(userId, breaker);
    }

    void onFailure(long userId) {
        CircuitBreaker breaker = breakers.get(userId);
        if (breaker == null) {
            if (breakers.size() >= MAX_TRACKED) {
                // Users who went away leave breakers behind; those no longer refusing anything can go.
                breakers.values().removeIf(old -> old.untilTrial().isZero());
                if (breakers.size() >= MAX_TRACKED) return;
            }
            breaker = breakers.computeIfAbsent(userId, id -> new CircuitBreaker("Redis for user " + id, failureThreshold, openFor, nanoClock));
        }
        breaker.onFailure(userId);
    }

    void release(long userId) {
        CircuitBreaker breaker = breakers.get(userId);
        if (breaker != null) breaker.release();
    }

    int tracked() {
        return breakers.size();
    }
}
