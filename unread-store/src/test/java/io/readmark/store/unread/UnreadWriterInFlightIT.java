package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.readmark.infra.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link UnreadWriter#awaitUnansweredAtMost}: how the fan-out worker bounds what it has queued in Redis. */
class UnreadWriterInFlightIT {

    private static final Duration PAUSE = Duration.ofMillis(600);

    @Test
    void shouldReturnOnceEveryWriteButTheNewestWasApplied() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(2), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), new UnreadKeys("burst"), UnreadLimits.DEFAULTS, 1_000)) {
            UnreadKeys keys = new UnreadKeys("burst");
            for (long blog = 1; blog <= 10; blog++) writer.deliver(101, 7, blog, blog * 1_000);
            connections.shared().sync().clientPause(PAUSE.toMillis()); // Redis answers nothing before the pause ends
            long start = System.nanoTime();

            writer.awaitUnansweredAtMost(3);

            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited for Redis").isGreaterThan(PAUSE.dividedBy(2));
            for (long blog = 1; blog <= 7; blog++) {
                assertThat(connections.shared().sync().zscore(keys.z(101), Long.toString(blog))).as("blog " + blog)
                        .isEqualTo(-blog * 1.0);
            }
            writer.awaitUnansweredAtMost(10); // as many as were sent: nothing to wait for
            writer.awaitAcknowledged();
            assertThat(connections.shared().sync().hget(keys.h(101), "total")).isEqualTo("10");
        }
    }

    @Test
    void shouldWaitForEveryWriteToBeAppliedOnceOneFailed() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(1), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), new UnreadKeys("down"), UnreadLimits.DEFAULTS, 1_000)) {
            UnreadKeys keys = new UnreadKeys("down");
            redis.stop();
            for (long blog = 1; blog <= 4; blog++) writer.deliver(101, 7, blog, blog * 1_000);

            // The write it waits for fails: from then on it waits, as a commit does, until Redis applied them all.
            CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> writer.awaitUnansweredAtMost(1));
            await("blocked while Redis is down").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> !waited.isDone());

            redis.restart();
            waited.get(30, TimeUnit.SECONDS);
            assertThat(connections.shared().sync().hget(keys.h(101), "total")).isEqualTo("4");
        }
    }
}
