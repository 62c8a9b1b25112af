package io.readmark.processor.fanout;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The token bucket on a fake clock: a wait moves the clock by as much, so nothing sleeps. */
class RateLimiterTest {

    private long now = 1_000_000_000L;
    private final List<Long> waits = new ArrayList<>();
    private final RateLimiter limiter = new RateLimiter(1_000, () -> now, nanos -> {
        waits.add(nanos);
        now += nanos;
    });

    private void idle(Duration duration) {
        now += duration.toNanos();
    }

    private long waited(int permits) {
        int before = waits.size();
        limiter.acquire(permits);
        return waits.size() == before ? 0 : waits.getLast();
    }

    /** Acquiring {@code permits} waits {@code expected}, to within float rounding. */
    private void assertWaits(int permits, Duration expected) {
        assertThat(waited(permits)).as("wait for %d permits", permits).isCloseTo(expected.toNanos(), within(10L));
    }

    @Test
    void shouldLetABurstOfATenthOfASecondThroughWithoutWaiting() {
        assertWaits(60, Duration.ZERO);
        assertWaits(40, Duration.ZERO);
    }

    @Test
    void shouldMakeRequestsBeyondTheBurstWaitForTheirPermitsAtTheRate() {
        limiter.acquire(100);

        assertWaits(50, Duration.ofMillis(50));
        assertWaits(1, Duration.ofMillis(1));
    }

    @Test
    void shouldMakeARequestLargerThanTheBurstWaitForTheWholeExcess() {
        assertWaits(300, Duration.ofMillis(200));
        assertWaits(1, Duration.ofMillis(1));
    }

    @Test
    void shouldRefillWhileIdleButNeverBeyondTheBurst() {
        limiter.acquire(100);
        idle(Duration.ofSeconds(10));

        assertWaits(100, Duration.ZERO);
        assertWaits(1, Duration.ofMillis(1));
    }

    @Test
    void shouldRefillInProportionToTheTimePassed() {
        limiter.acquire(100);
        idle(Duration.ofMillis(30));

        assertWaits(30, Duration.ZERO);
        assertWaits(10, Duration.ofMillis(10));
    }

    @Test
    void shouldRefuseARateThatIsNotPositive() {
        assertThatThrownBy(() -> new RateLimiter(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
