package io.readmark.view;

import io.readmark.view.push.ChangeFeed;
import io.readmark.view.push.LiveKeys;
import io.readmark.view.push.OpenStreams;
import io.readmark.view.push.StreamRoute;
import io.readmark.view.redis.CircuitBreaker;
import io.readmark.view.redis.RedisConnector;
import io.readmark.view.redis.RedisGuard;
import io.readmark.view.redis.RequestConnections;
import io.readmark.view.redis.UserBreakers;
import io.readmark.view.routes.AudienceNoticeCache;
import io.readmark.view.routes.ViewRoutes;

import io.readmark.common.auth.Access;
import io.readmark.common.config.Settings;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.metrics.ServiceMetrics;
import io.readmark.store.notice.LiveNoticeSource;
import io.readmark.store.notice.NoticeKeys;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The view API service: a Redis connector, the API server and the management server (health, metrics), started
 * together and closed together. The servers start even while Redis is unreachable (reads and readiness answer 503 until it connects). Reads fail fast while
 * Redis is disconnected instead of queueing, and a circuit breaker stops asking a Redis that keeps failing, so an
 * outage answers 503 within the command timeout, and at once after a few failures.
 */
public final class ViewApi implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ViewApi.class);

    private final ServiceMetrics metrics;
    private final RedisConnector redis;
    private final ChangeFeed feed;
    private final OpenStreams streams;
    private final JsonHttpServer server;
    private final JsonHttpServer management;
    private final EventLoopGroup loops;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ViewApi(ServiceMetrics metrics, RedisConnector redis, ChangeFeed feed, OpenStreams streams, JsonHttpServer server,
                    JsonHttpServer management, EventLoopGroup loops) {
        this.metrics = metrics;
        this.redis = redis;
        this.feed = feed;
        this.streams = streams;
        this.server = server;
        this.management = management;
        this.loops = loops;
    }

    /**
     * Starts serving and connects to Redis, in the background if it cannot be reached now.
     *
     * @throws UncheckedIOException if the HTTP port cannot be bound
     */
    public static ViewApi start(ViewApiConfig config) {
        return start(config, server -> { });
    }

    /**
     * Starts serving as {@link #start(ViewApiConfig)} does, with {@code moreRoutes} added to the API port (a local
     * run's demo page).
     */
    public static ViewApi start(ViewApiConfig config, Consumer<JsonHttpServer> moreRoutes) {
        ServiceMetrics metrics = new ServiceMetrics("view-api");
        // The API's connections and its Redis connections share these loops: see RequestConnections.
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(new DefaultThreadFactory("view-api-io"), NioIoHandler.newFactory());
        RedisConnector redis = null;
        ChangeFeed feed = null;
        OpenStreams streams = null;
        JsonHttpServer server = null;
        try {
            redis = RedisConnector.start(config.redis(), config.redisTimeout(), metrics.registry(), loops);
            // The shared circuit opens on failures of two callers at least: one user's failing reads open only theirs.
            CircuitBreaker breaker = new CircuitBreaker("Redis", config.circuitFailures(), config.circuitOpen(), System::nanoTime, 2);
            UserBreakers users = new UserBreakers(config.circuitFailures(), config.circuitOpen(), System::nanoTime);
            RedisGuard guard = new RedisGuard(redis, breaker, users, config.redisTimeout());
            AudienceNoticeCache audienceCache = new AudienceNoticeCache(
                    LiveNoticeSource.direct(new NoticeKeys(config.redisPrefix())), config.noticeCacheTtl(), System::nanoTime);
            ViewRoutes routes = new ViewRoutes(guard, config, audienceCache);
            feed = new ChangeFeed(redis, config.redisTimeout());
            LiveKeys liveKeys = new LiveKeys(config.keys(), config.streams().liveTtl());
            streams = new OpenStreams(config.streams(), liveKeys, redis::connections, metrics.registry());
            StreamRoute stream = new StreamRoute(guard, routes, feed, audienceCache, liveKeys, streams, config.keys(),
                    config.streams());
            Access access = Access.from("view-api", config.auth());
            server = routes.register(new JsonHttpServer("view-api").limits(config.http()).cors(config.cors())
                            .measuredBy(metrics.registry()).eventLoops(loops), access, stream, config.streams());
            moreRoutes.accept(server);
            server.start(config.host(), config.port());
            JsonHttpServer management = JsonHttpServer.management("view-api", metrics.registry(), routes::live, routes::ready);
            try {
                management.start(config.managementHost(), config.managementPort());
            } catch (IOException e) {
                throw new UncheckedIOException("view-api cannot listen on " + config.managementHost() + ":"
                        + config.managementPort() + " (management)", e);
            }
            return new ViewApi(metrics, redis, feed, streams, server, management, loops);
        } catch (IOException e) {
            release(server, streams, feed, redis, loops, metrics);
            throw new UncheckedIOException("view-api cannot listen on " + config.host() + ":" + config.port(), e);
        } catch (RuntimeException e) {
            release(server, streams, feed, redis, loops, metrics);
            throw e;
        }
    }

    /** The routes served, as {@code "GET /v1/users/{userId}/unread"}. */
    public List<String> routes() {
        return server.routes();
    }

    private static void release(JsonHttpServer server, OpenStreams streams, ChangeFeed feed, RedisConnector redis,
                                EventLoopGroup loops, ServiceMetrics metrics) {
        if (server != null) server.close();
        if (streams != null) streams.close();
        if (feed != null) feed.close();
        if (redis != null) redis.close();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        metrics.close();
    }

    /** The bound HTTP port (the real one when the configuration asked for 0). */
    public int port() {
        return server.port();
    }

    /** The bound management port: health and metrics. */
    public int managementPort() {
        return management.port();
    }

    /** Stops accepting requests, lets running ones finish, then closes Redis and the event loops; idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        server.close();
        streams.close();
        feed.close();
        management.close();
        redis.close();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        metrics.close();
    }

    public static void main(String[] args) throws InterruptedException {
        ViewApiConfig config = ViewApiConfig.from(Settings.fromEnvironment());
        // Here, not in start(): only a process of its own has its file limit to itself; one that embeds the view API
        // (a local stack, the bench) shares it.
        FileLimit.check(config);
        ViewApi api = start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("view-api shutting down");
            api.close();
            stopped.countDown();
        }, "view-api-shutdown"));
        stopped.await();
    }
}
