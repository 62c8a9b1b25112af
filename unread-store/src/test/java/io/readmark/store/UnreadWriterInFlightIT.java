package io.readmark.store;

import io.readmark.infra.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link UnreadWriter#awaitUnansweredAtMost}: how the fan-out worker bounds what it has queued in Redis. */
class UnreadWriterInFlightIT {

    @Test
    void shouldReturnOnceEveryWriteButTheNewestWasApplied() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(2), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), new UnreadKeys("burst"), UnreadLimits.DEFAULTS, 1_000)) {
            UnreadKeys keys = new UnreadKeys("burst");
            for (long blog = 1; blog <= 10; blog++) writer.deliver(101, 7, blog, blog * 1_000);

            writer.awaitUnansweredAtMost(3);

            for (long blog = 1; blog <= 7; blog++) {
                assertThat(connections.shared().sync().zscore(keys.unread(101, 7), Long.toString(blog))).as("blog " + blog)
                        .isEqualTo(blog * 1_000.0);
            }
            writer.awaitUnansweredAtMost(10); // as many as were sent: nothing to wait for
            writer.awaitAcknowledged();
            assertThat(connections.shared().sync().hget(keys.counts(101), "total")).isEqualTo("10");
        }
    }

    @Test
    void shouldReturnWhenRedisIsDownAndLeaveTheFailedWritesToTheNextAcknowledgement() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(1), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), new UnreadKeys("down"), UnreadLimits.DEFAULTS, 1_000)) {
            UnreadKeys keys = new UnreadKeys("down");
            redis.stop();
            for (long blog = 1; blog <= 4; blog++) writer.deliver(101, 7, blog, blog * 1_000);

            // The write it waits for times out: a failed write counts as answered, the worker goes on.
            CompletableFuture.runAsync(() -> writer.awaitUnansweredAtMost(1)).get(30, TimeUnit.SECONDS);

            redis.restart();
            writer.awaitAcknowledged();
            assertThat(connections.shared().sync().hget(keys.counts(101), "total")).isEqualTo("4");
        }
    }
}
