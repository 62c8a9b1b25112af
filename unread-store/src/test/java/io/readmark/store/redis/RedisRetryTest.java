package io.readmark.store.redis;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RedisRetryTest {

    @Test
    void shouldDoubleFromAHundredMillisecondsUpToFiveSeconds() {
        List<Duration> waits = new ArrayList<>();
        Duration wait = RedisRetry.FIRST;
        for (int i = 0; i < 8; i++) {
            waits.add(wait);
            wait = RedisRetry.after(wait);
        }
        assertThat(waits).extracting(Duration::toMillis).containsExactly(100L, 200L, 400L, 800L, 1_600L, 3_200L, 5_000L, 5_000L);
    }
}
