package io.readmark.view;

import io.lettuce.core.RedisException;
import io.readmark.common.http.ApiException;
import io.readmark.store.RedisConnections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.Function;

/**
 * The one way a request reaches Redis. Refuses at once while there is no connection yet or the circuit is open, and
 * turns every Redis failure into a retryable 503 problem, so a client never waits on a dead Redis or sees a 500.
 */
final class RedisGuard {

    private static final Logger log = LoggerFactory.getLogger(RedisGuard.class);
    private static final int RETRY_AFTER_SECONDS = 1;

    private final RedisConnector connector;
    private final CircuitBreaker breaker;
    private final Duration commandTimeout;

    RedisGuard(RedisConnector connector, CircuitBreaker breaker, Duration commandTimeout) {
        this.connector = connector;
        this.breaker = breaker;
        this.commandTimeout = commandTimeout;
    }

    /**
     * Runs one Redis call. Any Lettuce failure (refused while disconnected, connect failure, timeout) means the view
     * is unavailable right now, which the client should retry, not an error in its request.
     */
    <T> T call(Function<RedisConnections.Connection, T> call) {
        RedisConnections.Connection connection = connector.connection()
                .orElseThrow(() -> unavailable("which is not connected yet", RETRY_AFTER_SECONDS));
        if (!breaker.tryAcquire()) {
            long seconds = Math.max(1, (breaker.untilTrial().toMillis() + 999) / 1000);
            throw unavailable("which failed repeatedly, so requests are refused without asking it until it is tried"
                    + " again", (int) seconds);
        }
        boolean judged = false;
        try {
            T result = call.apply(connection);
            judged = true;
            breaker.onSuccess();
            return result;
        } catch (RedisException e) {
            judged = true;
            // The exception's text can name hosts and ports, so it goes to the log and not to the client.
            log.atWarn().addKeyValue("error", e.toString()).log("Redis unavailable, answering 503");
            breaker.onFailure();
            throw unavailable("which did not answer within " + commandTimeout.toMillis() + " ms", RETRY_AFTER_SECONDS);
        } finally {
            // Failed before reaching Redis (a bad cursor): no verdict, but a trial must not hold the circuit half-open.
            if (!judged) breaker.release();
        }
    }

    private static ApiException unavailable(String why, int retryAfterSeconds) {
        return ApiException.unavailable("Redis unavailable",
                "unread state is stored in Redis, " + why + "; retry after " + retryAfterSeconds + " s", retryAfterSeconds);
    }
}
