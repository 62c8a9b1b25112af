package io.readmark.bench;

import io.lettuce.core.ScriptOutputType;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class RedisStatsIT {

    @Test
    void countsTheCommandsThatRanLongerThanTheSlowThresholdAndNoOthers() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(server.url(), Duration.ofSeconds(30), false);
             RedisStats stats = new RedisStats(redis);
             RedisConnections.Connection client = redis.open()) {
            assertThat(client.sync().configGet("slowlog-log-slower-than"))
                    .containsEntry("slowlog-log-slower-than", Long.toString(RedisStats.SLOW_COMMAND_MICROS));
            long before = stats.slowCommands();
            client.sync().set("k", "v");
            assertThat(stats.slowCommands()).as("a fast command").isEqualTo(before);

            // A script that spins for hundreds of milliseconds: slow by any threshold of a few milliseconds.
            client.sync().eval("local n = 0 for i = 1, 20000000 do n = n + 1 end return n", ScriptOutputType.INTEGER);
            client.sync().eval("local n = 0 for i = 1, 20000000 do n = n + 1 end return n", ScriptOutputType.INTEGER);

            assertThat(stats.slowCommands()).isEqualTo(before + 2);
        }
    }
}
