package io.readmark.view.redis;

import io.readmark.view.redis.CircuitBreaker.State;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CircuitBreakerTest {

    private static final Duration OPEN_FOR = Duration.ofSeconds(2);

    private long now = 1_000_000_000L;
    private final CircuitBreaker breaker = new CircuitBreaker("test", 3, OPEN_FOR, () -> now);

    private void advance(Duration duration) {
        now += duration.toNanos();
    }

    private void fail(int times) {
        for (int i = 0; i < times; i++) {
            assertThat(breaker.tryAcquire()).isTrue();
            breaker.onFailure();
        }
    }

    @Test
    void shouldLetCallsThroughWhileFailuresStayBelowTheThreshold() {
        // Given / When
        fail(2);

        // Then
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.tryAcquire()).isTrue();
        assertThat(breaker.untilTrial()).isZero();
    }

    @Test
    void shouldCountOnlyConsecutiveFailures() {
        // Given
        fail(2);
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.onSuccess();

        // When
        fail(2);

        // Then
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void shouldOpenAtTheThresholdAndRefuseUntilTheOpenTimeHasPassed() {
        // Given / When
        fail(3);

        // Then
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquire()).isFalse();
        assertThat(breaker.untilTrial()).isEqualTo(OPEN_FOR);
        advance(OPEN_FOR.minusMillis(1));
        assertThat(breaker.tryAcquire()).isFalse();
        assertThat(breaker.untilTrial()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void shouldLetExactlyOneTrialThroughOnceTheOpenTimeHasPassed() {
        // Given
        fail(3);
        advance(OPEN_FOR);

        // When
        boolean trial = breaker.tryAcquire();

        // Then
        assertThat(trial).isTrue();
        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquire()).as("a second call while the trial runs").isFalse();
        assertThat(breaker.untilTrial()).isZero();
    }

    @Test
    void shouldCloseWhenTheTrialSucceeds() {
        // Given
        fail(3);
        advance(OPEN_FOR);
        assertThat(breaker.tryAcquire()).isTrue();

        // When
        breaker.onSuccess();

        // Then
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.tryAcquire()).isTrue();
        assertThat(breaker.tryAcquire()).isTrue();
        fail(2);
        assertThat(breaker.state()).as("the failure count starts again").isEqualTo(State.CLOSED);
    }

    @Test
    void shouldOpenForAnotherFullPeriodWhenTheTrialFails() {
        // Given
        fail(3);
        advance(OPEN_FOR.plusSeconds(5));
        assertThat(breaker.tryAcquire()).isTrue();

        // When
        breaker.onFailure();

        // Then
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquire()).isFalse();
        assertThat(breaker.untilTrial()).isEqualTo(OPEN_FOR);
        advance(OPEN_FOR);
        assertThat(breaker.tryAcquire()).isTrue();
    }

    @Test
    void shouldLetAnotherTrialThroughWhenTheTrialEndedWithoutAVerdict() {
        // Given a trial that failed before it reached the dependency
        fail(3);
        advance(OPEN_FOR);
        assertThat(breaker.tryAcquire()).isTrue();

        // When
        breaker.release();

        // Then
        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquire()).isTrue();
        assertThat(breaker.tryAcquire()).isFalse();
    }

    @Test
    void shouldIgnoreOutcomesOfCallsThatStartedBeforeItOpened() {
        // Given two calls let through while closed
        assertThat(breaker.tryAcquire()).isTrue();
        assertThat(breaker.tryAcquire()).isTrue();
        fail(3);
        advance(Duration.ofSeconds(1));

        // When they end while the circuit is open
        breaker.onFailure();
        breaker.onSuccess();

        // Then it stays open for the time it was opened for, not longer and not shorter
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.untilTrial()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldRefuseNonsenseSettings() {
        assertThatThrownBy(() -> new CircuitBreaker("test", 0, OPEN_FOR, () -> now)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CircuitBreaker("test", 1, Duration.ZERO, () -> now)).isInstanceOf(IllegalArgumentException.class);
    }
}
