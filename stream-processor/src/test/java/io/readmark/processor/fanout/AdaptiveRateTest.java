package io.readmark.processor.fanout;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The controller alone, fed round trips on a fake clock. */
class AdaptiveRateTest {

    private static final long MS = 1_000_000L;
    private static final long SAMPLE = 20 * MS;

    private final RateLimiter limiter = new RateLimiter(1, () -> 0L, nanos -> { });
    private final AdaptiveRate rate = new AdaptiveRate(limiter, new AdaptiveRate.Limits(1_000, 101_000, Duration.ofNanos(MS / 2)));
    private long now = 1_000 * MS;

    private double sample(long roundTripNanos) {
        now += SAMPLE;
        return rate.observe(roundTripNanos, now);
    }

    @Test
    void shouldStartAtTheMinimumAndClimbToTheMaximumWhileRedisAnswersAsFastAsItCan() {
        assertThat(rate.rate()).isEqualTo(1_000);
        assertThat(limiter.rate()).isEqualTo(1_000, org.assertj.core.api.Assertions.within(1e-6));

        assertThat(sample(100_000)).isEqualTo(2_000);
        for (int i = 0; i < 98; i++) sample(100_000);
        assertThat(sample(100_000)).isEqualTo(101_000);
        assertThat(sample(100_000)).as("never above the maximum").isEqualTo(101_000);
        assertThat(limiter.rate()).isEqualTo(101_000, org.assertj.core.api.Assertions.within(1e-6));
    }

    @Test
    void shouldCutTheRateWhenTheRoundTripRisesAboveTheBaselineByMoreThanTheTolerance() {
        for (int i = 0; i < 200; i++) sample(100_000);

        // Smoothed: one slow answer moves the average by a quarter of the difference; 0.4 ms above is tolerated.
        assertThat(sample(1_700_000)).as("0.1 + 0.25 x 1.6 = 0.5 ms: within 0.5 ms of 0.1").isEqualTo(101_000);
        double cut = sample(5 * MS);
        assertThat(cut).isEqualTo(101_000 * 0.7, org.assertj.core.api.Assertions.within(1e-6));
        for (int i = 0; i < 50; i++) sample(5 * MS);
        assertThat(rate.rate()).as("never below the minimum").isEqualTo(1_000);
    }

    @Test
    void shouldBackOffWhenRedisDoesNotAnswer() {
        for (int i = 0; i < 200; i++) sample(100_000);

        assertThat(rate.observeFailure()).isEqualTo(101_000 * 0.7, org.assertj.core.api.Assertions.within(1e-6));
    }

    @Test
    void shouldTakeTheBaselineFromTheLastTenSecondsSoItFollowsTheMachine() {
        for (int i = 0; i < 200; i++) sample(100_000);
        for (int i = 0; i < 100; i++) sample(2 * MS);
        assertThat(rate.rate()).as("2 ms against a 0.1 ms baseline: congested").isEqualTo(1_000);

        // 14 s later the 0.1 ms samples are out of the window: 2 ms is the new normal, and the rate climbs again.
        for (int i = 0; i < 700; i++) sample(2 * MS);
        assertThat(rate.rate()).isEqualTo(101_000);
    }

    @Test
    void shouldRefuseLimitsThatCannotHold() {
        assertThatThrownBy(() -> new AdaptiveRate.Limits(0, 10, Duration.ofMillis(1))).hasMessageContaining("minimum");
        assertThatThrownBy(() -> new AdaptiveRate.Limits(20, 10, Duration.ofMillis(1))).hasMessageContaining("maximum");
        assertThatThrownBy(() -> new AdaptiveRate.Limits(1, 10, Duration.ZERO)).hasMessageContaining("tolerance");
    }
}
