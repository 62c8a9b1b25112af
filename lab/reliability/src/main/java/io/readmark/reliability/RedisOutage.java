package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedis;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;

/**
 * Stops Redis for a while and starts it again with its data (it must be persistent: {@link EmbeddedRedis#startPersistent}).
 * Meanwhile the processors must pause and retry, not crash and not skip; what happens during the outage can be
 * watched by a {@link Watch}.
 */
public final class RedisOutage implements Fault {

    /** Runs while Redis is down, until {@code redisBackAt}; it may check whatever should hold meanwhile. */
    @FunctionalInterface
    public interface Watch {
        void during(Harness harness, Instant redisBackAt) throws Exception;
    }

    private final Duration length;
    private final Watch watch;
    private int outages;

    public RedisOutage(Duration length) {
        this(length, (harness, until) -> Poll.pause(Duration.between(Instant.now(), until)));
    }

    /** @param watch runs during the outage; Redis returns once it has returned and {@code length} has passed */
    public RedisOutage(Duration length, Watch watch) {
        this.length = length;
        this.watch = watch;
    }

    @Override
    public String name() {
        return "redis-outage";
    }

    @Override
    public synchronized void inject(Harness harness, Random random) throws Exception {
        EmbeddedRedis redis = harness.redis().orElseThrow(() -> new IllegalStateException("no embedded Redis to stop"));
        Instant back = Instant.now().plus(length);
        redis.stop();
        try {
            watch.during(harness, back);
            Duration left = Duration.between(Instant.now(), back);
            if (left.isPositive()) Poll.pause(left);
        } finally {
            redis.restart();
            outages++;
        }
    }

    public synchronized int outages() {
        return outages;
    }
}
