package io.readmark.view.redis;

import io.lettuce.core.RedisException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.redis.RedisRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Connects to Redis without making the view API's start depend on it: the first attempt is made at once, and while
 * Redis cannot be reached further attempts follow in the background with exponential backoff. Once connected,
 * Lettuce itself reconnects after any later outage.
 */
public final class RedisConnector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisConnector.class);

    private final RedisEndpoint endpoint;
    private final Duration commandTimeout;
    private final MeterRegistry registry;
    private final EventLoopGroup loops;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("view-api-redis-connect").daemon().factory());
    private volatile RequestConnections connections;
    private boolean closed; // guarded by this

    private RedisConnector(RedisEndpoint endpoint, Duration commandTimeout, MeterRegistry registry, EventLoopGroup loops) {
        this.endpoint = endpoint;
        this.commandTimeout = commandTimeout;
        this.registry = registry;
        this.loops = loops;
    }

    /**
     * Tries to connect now; if Redis is unreachable, returns anyway and keeps trying in the background.
     *
     * @param loops the HTTP server's event loops, which its connections share ({@link RequestConnections})
     */
    public static RedisConnector start(RedisEndpoint endpoint, Duration commandTimeout, MeterRegistry registry, EventLoopGroup loops) {
        RedisConnector connector = new RedisConnector(endpoint, commandTimeout, registry, loops);
        int all = RequestConnections.countFor(endpoint, loops);
        Gauge.builder("readmark.redis.connections.down", connector, c -> c.disconnected(all))
                .description("Redis connections of the requests' event loops that are not connected; reads go on the others")
                .register(registry);
        try {
            connector.attempt(RedisRetry.FIRST);
        } catch (RuntimeException e) { // not an outage but a bad URL: no retry would help
            connector.close();
            throw e;
        }
        return connector;
    }

    /** The connection for the calling thread ({@link RequestConnections#current()}), once connected. */
    public Optional<RedisConnections.Connection> connection() {
        RequestConnections current = connections;
        return current == null ? Optional.empty() : Optional.of(current.current());
    }

    /** All {@code all} before the first connection, then those reconnecting ({@link RequestConnections#disconnected()}). */
    private int disconnected(int all) {
        RequestConnections current = connections;
        return current == null ? all : current.disconnected();
    }

    /** The client, once connected: for connections of their own, such as Pub/Sub. */
    public Optional<RedisConnections> connections() {
        return Optional.ofNullable(connections).map(RequestConnections::client);
    }

    private void attempt(Duration nextRetry) {
        RequestConnections connected;
        try {
            connected = RequestConnections.connect(endpoint, commandTimeout, registry, loops);
        } catch (RedisException e) {
            synchronized (this) {
                if (closed) return;
                log.warn("Redis at {} is unreachable ({}); answering 503 and connecting again in {} ms",
                        endpoint, e.getMessage(), nextRetry.toMillis());
                retries.schedule(() -> attempt(RedisRetry.after(nextRetry)), nextRetry.toMillis(), TimeUnit.MILLISECONDS);
            }
            return;
        }
        synchronized (this) {
            if (closed) {
                connected.close();
                return;
            }
            connections = connected;
        }
        log.info("view-api connected to Redis at {}", endpoint);
    }

    /** Stops connecting and closes the connection; idempotent. */
    @Override
    public void close() {
        RequestConnections current;
        synchronized (this) {
            if (closed) return;
            closed = true;
            current = connections;
        }
        retries.shutdownNow();
        if (current != null) current.close();
    }
}
