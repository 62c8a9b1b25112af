package io.readmark.processor.commit;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each stream thread's writer converts a user of the layout before z and h before writing to them only when the
 * processor runs for a layout upgrade ({@code READMARK_LAYOUT_UPGRADE}).
 */
class WriterPerThreadIT {

    private static final long T0 = 1_767_225_600_000L;

    @Test
    void shouldConvertAUserOfThePreviousLayoutBeforeWritingOnlyDuringAnUpgrade() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(server.url(), Duration.ofSeconds(2), false)) {
            RedisClusterCommands<String, String> sync = redis.shared().sync();
            for (boolean upgrade : new boolean[]{true, false}) {
                // Given a user with an unread blog of the previous layout (its set and its count)
                UnreadKeys keys = new UnreadKeys("upgrade-" + upgrade);
                sync.zadd(keys.unread(1, 7), T0, "5");
                sync.hset(keys.counts(1), Map.of("7", "1", "total", "1"));

                // When this thread's writer delivers to them
                try (WriterPerThread writers = new WriterPerThread(redis, keys, UnreadLimits.DEFAULTS, 100, applied -> { },
                        retried -> { }, 0, upgrade)) {
                    writers.current().deliver(1, 8, 9, T0 + 1_000);
                    writers.awaitCurrentThread();
                }

                // Then during an upgrade the old blog moved to z first and the old keys are gone; else both stay
                assertThat(sync.zscore(keys.z(1), "9")).as("the delivery, upgrade %s", upgrade).isEqualTo(-(T0 / 1_000.0 + 1));
                assertThat(sync.zscore(keys.z(1), "5")).as("the old blog in z, upgrade %s", upgrade)
                        .isEqualTo(upgrade ? -(T0 / 1_000.0) : null);
                assertThat(sync.exists(keys.counts(1), keys.unread(1, 7))).as("old keys, upgrade %s", upgrade).isEqualTo(upgrade ? 0 : 2);
            }
        }
    }
}
