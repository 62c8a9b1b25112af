package io.readmark.view.push;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class StreamOpeningsTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    private final StreamOpenings openings = new StreamOpenings(10, clock::get);

    @Test
    void shouldStartASecondsWorthAtOnceThenWaitUpToASecondThenRefuse() {
        // Given an idle bucket of ten a second; when 25 starts arrive at one instant
        long atOnce = 0, waited = 0, refused = 0, longest = 0;
        for (int i = 0; i < 25; i++) {
            long wait = openings.reserve();
            if (wait == 0) atOnce++; else if (wait > 0) waited++; else refused++;
            longest = Math.max(longest, wait);
        }
        // Then a second's worth start at once, the next second's worth wait for their turn, the rest are refused
        assertThat(atOnce).isEqualTo(10);
        assertThat(waited).isEqualTo(10);
        assertThat(refused).isEqualTo(5);
        assertThat(longest).isEqualTo(SECOND);
    }

    @Test
    void shouldRefillAtItsRateAndHoldAtMostASecondsWorth() {
        // Given a bucket emptied, and a full second waited for
        for (int i = 0; i < 20; i++) openings.reserve();
        assertThat(openings.reserve()).isNegative();
        // When a tenth of a second passes, one more start is let in (to wait its second)
        clock.addAndGet(SECOND / 10);
        assertThat(openings.reserve()).isEqualTo(SECOND);
        assertThat(openings.reserve()).isNegative();
        // And after an idle hour only a second's worth starts at once
        clock.addAndGet(3_600 * SECOND);
        int atOnce = 0;
        while (openings.reserve() == 0) atOnce++;
        assertThat(atOnce).isEqualTo(10);
    }
}
