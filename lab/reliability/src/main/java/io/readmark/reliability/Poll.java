package io.readmark.reliability;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting for a condition outside this process (a port, a consumer group, a log line), which has no signal to wait on. */
final class Poll {

    private Poll() {
    }

    /**
     * Checks {@code condition} every {@code interval} until it holds.
     *
     * @throws IllegalStateException with {@code whatFailed}'s text when it does not hold within {@code timeout}
     */
    static void until(BooleanSupplier condition, Duration timeout, Duration interval, Supplier<String> whatFailed) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within " + timeout.toSeconds() + " s: " + whatFailed.get());
            }
            pause(interval);
        }
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
