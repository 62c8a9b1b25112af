package io.readmark.processor.fanout;

import io.lettuce.core.ScriptOutputType;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.RedisConnections;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;

/** The fan-out rate against a real Redis: it climbs while Redis is idle, backs off while Redis is busy, and recovers. */
class AdaptiveRateIT {

    /** A few milliseconds of Redis's only thread: every other client's command waits behind it. */
    private static final String BUSY_SCRIPT = "local i = 0 while i < 300000 do i = i + 1 end return i";

    @Test
    void shouldBackOffWhileRedisIsBusyAndClimbAgainWhenItIsNot() throws Exception {
        AdaptiveRate rate = new AdaptiveRate(new RateLimiter(1_000), new AdaptiveRate.Limits(1_000, 101_000, Duration.ofNanos(500_000)));
        try (RedisConnections redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false);
             RedisLatencySampler sampler = RedisLatencySampler.start(redis, rate)) {
            await().atMost(Duration.ofSeconds(20)).until(() -> rate.rate() == 101_000);

            AtomicBoolean busy = new AtomicBoolean(true);
            List<Thread> load = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                load.add(Thread.ofPlatform().name("busy-redis-" + i).start(() -> {
                    try (RedisConnections.Connection connection = redis.open()) {
                        while (busy.get()) connection.sync().eval(BUSY_SCRIPT, ScriptOutputType.INTEGER);
                    }
                }));
            }
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> rate.rate() <= 2_000);
            } finally {
                busy.set(false);
                for (Thread thread : load) thread.join();
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> rate.rate() == 101_000);
        }
    }
}
