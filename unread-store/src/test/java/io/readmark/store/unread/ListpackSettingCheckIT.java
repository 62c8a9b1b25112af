package io.readmark.store.unread;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ListpackSettingCheck} against a real Redis: quiet at the thresholds the layout is sized for, a warning below. */
class ListpackSettingCheckIT {

    @Test
    void shouldWarnOnlyWhileAThresholdIsBelowWhatTheLayoutIsSizedFor() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false)) {
            assertThat(ListpackSettingCheck.warning(connections.shared())).as("the embedded Redis's thresholds").isEmpty();

            // Redis's own defaults
            connections.shared().sync().configSet("zset-max-listpack-entries", "128");
            connections.shared().sync().configSet("hash-max-listpack-value", "64");

            assertThat(ListpackSettingCheck.warning(connections.shared())).hasValueSatisfying(warning -> assertThat(warning)
                    .contains("zset-max-listpack-entries 128", "hash-max-listpack-value 64", "set zset-max-listpack-entries 2048, hash-max-listpack-value 512"));
        }
    }
}
