package io.readmark.view;

import io.readmark.common.config.Settings;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.metrics.ServiceMetrics;
import io.readmark.store.RedisConnections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The view API service: one Redis client and one HTTP server, started together and closed together. Reads fail fast
 * while Redis is disconnected instead of queueing, so a Redis outage answers 503 within the command timeout.
 */
public final class ViewApi implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ViewApi.class);

    private final ServiceMetrics metrics;
    private final RedisConnections redis;
    private final JsonHttpServer server;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ViewApi(ServiceMetrics metrics, RedisConnections redis, JsonHttpServer server) {
        this.metrics = metrics;
        this.redis = redis;
        this.server = server;
    }

    /**
     * Connects to Redis and starts serving.
     *
     * @throws io.lettuce.core.RedisConnectionException if Redis cannot be reached at startup
     * @throws UncheckedIOException                     if the HTTP port cannot be bound
     */
    public static ViewApi start(ViewApiConfig config) {
        ServiceMetrics metrics = new ServiceMetrics("view-api");
        RedisConnections redis = null;
        try {
            redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), true, metrics.registry());
            ViewRoutes routes = new ViewRoutes(redis.shared(), config);
            JsonHttpServer server = routes.register(new JsonHttpServer("view-api").metrics(metrics.registry()))
                    .start(config.host(), config.port());
            return new ViewApi(metrics, redis, server);
        } catch (IOException e) {
            release(redis, metrics);
            throw new UncheckedIOException("view-api cannot listen on " + config.host() + ":" + config.port(), e);
        } catch (RuntimeException e) {
            release(redis, metrics);
            throw e;
        }
    }

    private static void release(RedisConnections redis, ServiceMetrics metrics) {
        if (redis != null) redis.close();
        metrics.close();
    }

    /** The bound HTTP port (the real one when the configuration asked for 0). */
    public int port() {
        return server.port();
    }

    /** Stops accepting requests, lets running ones finish, then closes Redis; idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        server.close();
        redis.close();
        metrics.close();
    }

    public static void main(String[] args) throws InterruptedException {
        ViewApi api = start(ViewApiConfig.from(Settings.fromEnvironment()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("view-api shutting down");
            api.close();
            stopped.countDown();
        }, "view-api-shutdown"));
        stopped.await();
    }
}
