package io.readmark.view;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.EventExecutor;
import io.readmark.infra.EmbeddedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A read started on an event loop is answered on that loop, before and after Redis restarts. */
class RequestConnectionsIT {

    private static final EmbeddedRedis redis = EmbeddedRedis.start(0);
    private static final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(3, NioIoHandler.newFactory());
    private static final RequestConnections connections =
            RequestConnections.connect(redis.url(), Duration.ofSeconds(1), new SimpleMeterRegistry(), loops);

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

    private static Thread answeringThreadOfReadFrom(EventExecutor loop) {
        CompletableFuture<Thread> answered = new CompletableFuture<>();
        loop.execute(() -> connections.current().async().ping().whenComplete((pong, failure) -> {
            if (failure != null) {
                answered.completeExceptionally(failure);
            } else {
                answered.complete(Thread.currentThread());
            }
        }));
        return answered.orTimeout(5, TimeUnit.SECONDS).join();
    }

    private static Thread threadOf(EventExecutor loop) {
        return CompletableFuture.supplyAsync(Thread::currentThread, loop).join();
    }
}
