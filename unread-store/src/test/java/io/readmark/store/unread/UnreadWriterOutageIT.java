package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.readmark.infra.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A writer rides out a Redis outage: it keeps waiting (and retrying, which it reports) while Redis is down, and what was written
 * meanwhile is applied within a moment of Redis being back, not after a reconnect backoff grown during the outage.
 */
class UnreadWriterOutageIT {

    private static final Duration OUTAGE = Duration.ofSeconds(10);
    private static final Duration SOON = Duration.ofSeconds(3);

    @Test
    void shouldApplyWritesMadeDuringAnOutageSoonAfterRedisIsBack() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(2), false)) {
            UnreadKeys keys = new UnreadKeys("outage");
            AtomicLong retried = new AtomicLong();
            UnreadWriter writer = new UnreadWriter(connections.openBinary(), keys, UnreadLimits.DEFAULTS, 1_000, applied -> { },
                    retried::addAndGet);
            writer.deliver(101, 7, 1, 1_000);
            writer.awaitAcknowledged();
            assertThat(retried).as("nothing failed yet").hasValue(0);

            redis.stop();
            writer.deliver(101, 7, 2, 2_000);
            CompletableFuture<Void> acknowledged = CompletableFuture.runAsync(writer::awaitAcknowledged);
            await("still waiting while Redis is down").during(OUTAGE).atMost(OUTAGE.plusSeconds(5)).until(() -> !acknowledged.isDone());
            assertThat(retried.get()).as("each failed round reports the write it sends again").isGreaterThanOrEqualTo(2);

            redis.restart(); // without persistence: only what was written during the outage is there afterwards
            long back = System.nanoTime();
            acknowledged.get(30, TimeUnit.SECONDS);

            assertThat(Duration.ofNanos(System.nanoTime() - back)).as("acknowledged after Redis is back").isLessThan(SOON);
            assertThat(connections.shared().sync().zscore(keys.z(101), "2")).isEqualTo(-2.0);
            assertThat(connections.shared().sync().hget(keys.h(101), "total")).isEqualTo("1");
            writer.close();
        }
    }
}
