package io.readmark.view.redis;

import io.lettuce.core.KillArgs;
import io.readmark.store.redis.RedisEndpoint;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.EventExecutor;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A read started on an event loop is answered on that loop, before and after Redis restarts, and by a connection that
 * is back while the loop's own is still reconnecting.
 */
class RequestConnectionsIT {

    private static final EmbeddedRedis redis = EmbeddedRedis.start(0);
    private static final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(3, NioIoHandler.newFactory());
    private static final RequestConnections connections =
            RequestConnections.connect(RedisEndpoint.of(redis.url()), Duration.ofSeconds(1), new SimpleMeterRegistry(), loops);

    @AfterAll
    static void stop() {
        connections.close();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        redis.close();
    }

    @Test
    void shouldAnswerAReadOnTheLoopThatStartedIt() {
        for (EventExecutor loop : loops) {
            assertThat(answeringThreadOfReadFrom(loop)).isSameAs(threadOf(loop));
        }
    }

    @Test
    void shouldStayOnItsLoopAfterReconnecting() {
        redis.stop();
        redis.restart();

        for (EventExecutor loop : loops) {
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> assertThat(answeringThreadOfReadFrom(loop)).isSameAs(threadOf(loop)));
        }
    }

    @Test
    void shouldServeThreadsOutsideTheLoops() {
        assertThat(connections.current().sync().ping()).isEqualTo("PONG");
    }

    /**
     * After an outage the connections come back one by one; while some are still reconnecting, every read goes to one
     * that is back. Here all but the first loop's connection are killed and kept from reconnecting (Redis refuses new
     * clients beyond {@code maxclients}), for as long as the test needs, not for a reconnect delay's luck.
     */
    @Test
    void shouldServeEveryReadFromAConnectedConnectionWhileOthersAreStillReconnecting() {
        List<Long> ids = new ArrayList<>();
        for (EventExecutor loop : loops) ids.add(clientIdOfConnectionOf(loop));
        try (RedisConnections admin = RedisConnections.connect(redis.url(), Duration.ofSeconds(1), false)) {
            String maxClients = admin.shared().sync().configGet("maxclients").get("maxclients");
            try {
                admin.shared().sync().configSet("maxclients", "2"); // the admin's and the first loop's, already connected
                for (long id : ids.subList(1, ids.size())) admin.shared().sync().clientKill(KillArgs.Builder.id(id));

                // Once the killed connections are seen down, each loop's read goes to the one still connected.
                await().atMost(Duration.ofSeconds(10)).until(() -> connections.disconnected() == ids.size() - 1);
                await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> {
                    for (EventExecutor loop : loops) answeringThreadOfReadFrom(loop);
                });
                for (int read = 0; read < 30; read++) {
                    assertThat(connections.current().sync().ping()).isEqualTo("PONG");
                }
            } finally {
                admin.shared().sync().configSet("maxclients", maxClients);
            }
        }
        for (EventExecutor loop : loops) {
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> assertThat(answeringThreadOfReadFrom(loop)).isSameAs(threadOf(loop)));
        }
        assertThat(connections.disconnected()).isZero();
    }

    private static long clientIdOfConnectionOf(EventExecutor loop) {
        return answerFrom(loop, RedisClusterAsyncCommands::clientId, (id, thread) -> id);
    }

    private static Thread answeringThreadOfReadFrom(EventExecutor loop) {
        return answerFrom(loop, RedisClusterAsyncCommands::ping, (pong, thread) -> thread);
    }

    /** Sends {@code command} from {@code loop} on the connection it gets, and reads the reply and the thread it came on. */
    private static <R, T> T answerFrom(EventExecutor loop, Function<RedisClusterAsyncCommands<String, String>, RedisFuture<R>> command,
                                       BiFunction<R, Thread, T> answer) {
        CompletableFuture<T> answered = new CompletableFuture<>();
        loop.execute(() -> command.apply(connections.current().async()).whenComplete((reply, failure) -> {
            if (failure != null) {
                answered.completeExceptionally(failure);
            } else {
                answered.complete(answer.apply(reply, Thread.currentThread()));
            }
        }));
        return answered.orTimeout(5, TimeUnit.SECONDS).join();
    }

    private static Thread threadOf(EventExecutor loop) {
        return CompletableFuture.supplyAsync(Thread::currentThread, loop).join();
    }
}
