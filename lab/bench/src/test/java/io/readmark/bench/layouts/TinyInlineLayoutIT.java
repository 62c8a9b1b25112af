package io.readmark.bench.layouts;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Layout B keeps a small user in its bucket and moves it to A's keys past the inline records or at a read-all. */
class TinyInlineLayoutIT {

    private static final long T0 = 1_767_225_600_000L;

    @Test
    void aSmallUserStaysInItsBucketUntilItNeedsMoreRecordsOrAFloor() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(server.url(), Duration.ofSeconds(30), false);
             TinyInlineLayout layout = new TinyInlineLayout(redis, 1000, 1000)) {
            var sync = redis.shared().sync();
            for (int i = 1; i <= TinyInlineLayout.MAX_INLINE; i++) layout.deliver(1, 10, 100 + i, T0 + i * 1000L);
            layout.deliver(2, 10, 101, T0);
            layout.awaitWritten();
            assertThat(sync.hlen("rm:{b:0}:tiny")).isEqualTo(2);
            assertThat(sync.exists("rm:{b:0}:z:1", "rm:{b:0}:h:1")).isZero();

            layout.deliver(1, 10, 200, T0 + 100_000);
            layout.readAll(2, 10, T0);
            layout.awaitWritten();
            assertThat(sync.hlen("rm:{b:0}:tiny")).isZero();
            assertThat(sync.zcard("rm:{b:0}:z:1")).isEqualTo(TinyInlineLayout.MAX_INLINE + 1);
            assertThat(layout.counts(1).total()).isEqualTo(TinyInlineLayout.MAX_INLINE + 1);
            assertThat(layout.counts(2).total()).isZero();
            assertThat(sync.hget("rm:{b:0}:h:2", "f10")).isNotNull();
        }
    }
}
