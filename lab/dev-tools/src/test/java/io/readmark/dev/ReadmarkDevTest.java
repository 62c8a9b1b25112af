package io.readmark.dev;

import io.readmark.cli.Readmark;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReadmarkDevTest {

    @Test
    void shouldRunTheDeveloperToolsAndEveryProductionCommand() {
        assertThat(ReadmarkDev.COMMANDS.keySet()).contains("local", "bench", "soak").containsAll(Readmark.COMMANDS.keySet());
    }

    @Test
    void shouldLetTheSoakTakeItsSettingsWithoutTheirPrefix() {
        assertThat(ReadmarkDev.soakFlags(List.of("--minutes", "3", "--soak-seed", "42", "--redis-outage", "PT5S", "--readmark-log-level", "INFO")))
                .isEqualTo(Map.of("SOAK_MINUTES", "3", "SOAK_SEED", "42", "SOAK_REDIS_OUTAGE", "PT5S", "READMARK_LOG_LEVEL", "INFO"));
    }

    @Test
    void shouldTakeTheReplicatedSoaksSettingsWithoutTheirPrefix() {
        assertThat(ReadmarkDev.soakFlags(List.of("--replicated", "true", "--redis-failover-every", "PT40S", "--kafka-leader-kill-every", "PT50S")))
                .isEqualTo(Map.of("SOAK_REPLICATED", "true", "SOAK_REDIS_FAILOVER_EVERY", "PT40S", "SOAK_KAFKA_LEADER_KILL_EVERY", "PT50S"));
    }
}
