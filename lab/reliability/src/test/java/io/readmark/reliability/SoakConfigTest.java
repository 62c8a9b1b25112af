package io.readmark.reliability;

import io.readmark.common.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SoakConfigTest {

    @Test
    void shouldRunOnOneServerEachUnlessAskedForReplicas() {
        SoakConfig config = SoakConfig.from(settings(Map.of()));

        assertThat(config.replicated()).isFalse();
        assertThat(config.redisFailoverEvery()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.kafkaLeaderKillEvery()).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void shouldTakeTheReplicatedTopologyAndItsFaultPeriods() {
        SoakConfig config = SoakConfig.from(settings(Map.of(SoakConfig.REPLICATED, "true",
                SoakConfig.REDIS_FAILOVER_EVERY, "PT40S", SoakConfig.KAFKA_LEADER_KILL_EVERY, "50000")));

        assertThat(config.replicated()).isTrue();
        assertThat(config.redisFailoverEvery()).isEqualTo(Duration.ofSeconds(40));
        assertThat(config.kafkaLeaderKillEvery()).isEqualTo(Duration.ofSeconds(50));
    }

    @Test
    void shouldListTheNewSettingsSoThatTheSoakTakesThemAsFlags() {
        assertThat(SoakConfig.SETTINGS).contains(SoakConfig.REPLICATED, SoakConfig.REDIS_FAILOVER_EVERY, SoakConfig.KAFKA_LEADER_KILL_EVERY);
    }

    @Test
    void shouldRejectAReplicatedThatIsNotABooleanNamingTheSetting() {
        assertThatThrownBy(() -> SoakConfig.from(settings(Map.of(SoakConfig.REPLICATED, "maybe"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("SOAK_REPLICATED must be true or false");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SOAK_REDIS_FAILOVER_EVERY", "SOAK_KAFKA_LEADER_KILL_EVERY", "SOAK_KILL_EVERY", "SOAK_BROKER_DOWNTIME"})
    void shouldRejectAPeriodThatIsNotPositiveNamingTheSetting(String setting) {
        assertThatThrownBy(() -> SoakConfig.from(settings(Map.of(setting, "PT0S"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(setting + " must be positive, was PT0S");
        assertThatThrownBy(() -> SoakConfig.from(settings(Map.of(setting, "PT-5S"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(setting + " must be positive, was PT-5S");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SOAK_REDIS_FAILOVER_EVERY", "SOAK_KAFKA_LEADER_KILL_EVERY"})
    void shouldRejectAPeriodThatIsNotADurationNamingTheSetting(String setting) {
        assertThatThrownBy(() -> SoakConfig.from(settings(Map.of(setting, "often"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(setting + " must be a duration");
    }

    private static Settings settings(Map<String, String> values) {
        return Settings.of(values, Map.of());
    }
}
