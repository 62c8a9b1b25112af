package io.readmark.store.redis;

import java.time.Duration;

/**
 * How long everything that waits for Redis waits between attempts: 100 ms, doubling to 5 s. One schedule for the
 * writer's retries, a stream thread's first connection and the view API's background connect, so the documented
 * backoff is the one every part uses.
 */
public final class RedisRetry {

    public static final Duration FIRST = Duration.ofMillis(100);
    public static final Duration MAX = Duration.ofSeconds(5);

    private RedisRetry() {
    }

    /** The wait after {@code previous}: twice as long, at most {@link #MAX}. */
    public static Duration after(Duration previous) {
        Duration doubled = previous.multipliedBy(2);
        return doubled.compareTo(MAX) < 0 ? doubled : MAX;
    }
}
