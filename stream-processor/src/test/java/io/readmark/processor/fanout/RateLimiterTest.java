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

    @Test
    void shouldLetABurstOfATenthOfASecondThroughWithoutWaiting() {
        assertThat(waited(60)).isZero();
        assertThat(waited(40)).isZero();
    }

    @Test
    void shouldMakeRequestsBeyondTheBurstWaitForTheirPermitsAtTheRate() {
        limiter.acquire(100);

        assertThat(waited(50)).isCloseTo(Duration.ofMillis(50).toNanos(), within(10L));
        assertThat(waited(1)).isCloseTo(Duration.ofMillis(1).toNanos(), within(10L));
    }

    @Test
    void shouldMakeARequestLargerThanTheBurstWaitForTheWholeExcess() {
        assertThat(waited(300)).isCloseTo(Duration.ofMillis(200).toNanos(), within(10L));
        assertThat(waited(1)).as("the bucket is empty after it").isCloseTo(Duration.ofMillis(1).toNanos(), within(10L));
    }

    @Test
    void shouldRefillWhileIdleButNeverBeyondTheBurst() {
        limiter.acquire(100);
        idle(Duration.ofSeconds(10));

        assertThat(waited(100)).isZero();
        assertThat(waited(1)).isCloseTo(Duration.ofMillis(1).toNanos(), within(10L));
    }

    @Test
    void shouldRefillInProportionToTheTimePassed() {
        limiter.acquire(100);
        idle(Duration.ofMillis(30));

        assertThat(waited(30)).isZero();
        assertThat(waited(10)).isCloseTo(Duration.ofMillis(10).toNanos(), within(10L));
    }

    @Test
    void shouldRefuseARateThatIsNotPositive() {
        assertThatThrownBy(() -> new RateLimiter(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
