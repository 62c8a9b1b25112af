package io.readmark.view.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.readmark.common.http.ApiException;
import io.readmark.store.redis.RedisConnections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The one way a request reaches Redis. Refuses at once while there is no connection yet or a circuit is open, and
 * turns every Redis failure into a retryable 503 problem, so a client never waits on a dead Redis or sees a 500.
 * Two circuits: the shared one opens only when failures come from several callers or the connection itself is down
 * (Redis is the problem), and one per user opens when that user's own reads keep failing (the user's data or load is
 * the problem), so one heavy user cannot get everyone else refused.
 */
public final class RedisGuard {

    private static final Logger log = LoggerFactory.getLogger(RedisGuard.class);
    private static final int RETRY_AFTER_SECONDS = 1;
    /** The source of readiness probes' failures, distinct from every user. */
    private static final String PROBE = "readiness probe";

    private final RedisConnector connector;
    private final CircuitBreaker breaker;
    private final UserBreakers users;
    private final Duration commandTimeout;

    /** @param breaker the shared circuit; it should require failures of two sources */
    public RedisGuard(RedisConnector connector, CircuitBreaker breaker, UserBreakers users, Duration commandTimeout) {
        this.connector = connector;
        this.breaker = breaker;
        this.users = users;
        this.commandTimeout = commandTimeout;
    }

    /** One blocking read on behalf of {@code userId}. */
    public <T> T callFor(long userId, Function<RedisConnections.Connection, T> call) {
        return join(callForAsync(userId, connection -> CompletableFuture.completedFuture(call.apply(connection))));
    }

    /** One read on behalf of {@code userId} that does not wait: the stage fails with the 503 to answer. */
    public <T> CompletionStage<T> callForAsync(long userId, Function<RedisConnections.Connection, CompletionStage<T>> call) {
        if (!users.tryAcquire(userId)) {
            return CompletableFuture.failedFuture(unavailable("which failed this user's recent reads, so they are refused"
                    + " without asking it for a moment", seconds(users.untilTrial(userId))));
        }
        return call(userId, call).whenComplete((result, failure) -> {
            if (failure == null) {
                users.onSuccess(userId);
            } else if (cause(failure) instanceof RedisFailure) {
                users.onFailure(userId);
            } else {
                users.release(userId);
            }
        }).exceptionallyCompose(RedisGuard::answerOf);
    }

    /** A call that is not a user's, such as the readiness probe. */
    public <T> T probe(Function<RedisConnections.Connection, T> call) {
        return join(call(PROBE, connection -> CompletableFuture.completedFuture(call.apply(connection)))
                .exceptionallyCompose(RedisGuard::answerOf));
    }

    /** A failed call as the client sees it: a Redis failure becomes its 503, anything else stays what it was. */
    private static <T> CompletableFuture<T> answerOf(Throwable failure) {
        return CompletableFuture.failedFuture(cause(failure) instanceof RedisFailure redis ? redis.answer : cause(failure));
    }

    /**
     * Runs one Redis call under the shared circuit. Any Lettuce failure (refused while disconnected, connect failure,
     * timeout) means the view is unavailable right now, which the client should retry, not an error in its request.
     */
    private <T> CompletableFuture<T> call(Object source, Function<RedisConnections.Connection, CompletionStage<T>> call) {
        RedisConnections.Connection connection = connector.connection().orElse(null);
        if (connection == null) return CompletableFuture.failedFuture(unavailable("which is not connected yet", RETRY_AFTER_SECONDS));
        if (!breaker.tryAcquire()) {
            return CompletableFuture.failedFuture(unavailable("which failed repeatedly, so requests are refused without"
                    + " asking it until it is tried again", seconds(breaker.untilTrial())));
        }
        CompletionStage<T> stage;
        try {
            stage = call.apply(connection);
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        return stage.toCompletableFuture().handle((result, failure) -> {
            if (failure == null) {
                breaker.onSuccess();
                return result;
            }
            Throwable cause = cause(failure);
            if (!(cause instanceof RedisException e)) {
                // Failed before reaching Redis (a bad cursor): no verdict, but a trial must not hold the circuit half-open.
                breaker.release();
                throw new CompletionException(cause);
            }
            // The exception's text can name hosts and ports, so it goes to the log and not to the client.
            log.atWarn().addKeyValue("error", e.toString()).log("Redis unavailable, answering 503");
            // Lost connections are everyone's problem; a timeout or an error reply may be this caller's alone.
            boolean everyones = e instanceof RedisConnectionException || !connection.stateful().isOpen();
            breaker.onFailure(everyones ? null : source);
            throw new RedisFailure(unavailable("which did not answer within " + commandTimeout.toMillis() + " ms",
                    RETRY_AFTER_SECONDS));
        });
    }

    private static <T> T join(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) throw runtime;
            throw e;
        }
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private static int seconds(Duration wait) {
        return (int) Math.max(1, (wait.toMillis() + 999) / 1000);
    }

    /** A Redis failure during a call, carrying the 503 to answer with. */
    private static final class RedisFailure extends CompletionException {
        private final transient ApiException answer;

        RedisFailure(ApiException answer) {
            super(null, null);
            this.answer = answer;
        }
    }

    private static ApiException unavailable(String why, int retryAfterSeconds) {
        return ApiException.unavailable("Redis unavailable",
                "unread state is stored in Redis, " + why + "; retry after " + retryAfterSeconds + " s", retryAfterSeconds);
    }
}
