package io.readmark.reliability;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AlertRulesTest {

    @Test
    void shouldShortenEveryPendingTimeAndWindowAndKeepTheExpressions() {
        String deployed = AlertRules.deployed();
        assertThat(deployed).contains("alert: ReadmarkRedisWriteRetries", "for: 1m", "[5m]", "[10m]");

        String quick = AlertRules.quickened(deployed, Duration.ofSeconds(1), Duration.ofSeconds(10));

        assertThat(quick).doesNotContainPattern("for:\\s*\\d+m").doesNotContainPattern("\\[\\d+m]")
                .contains("for: 1s", "rate(readmark_redis_write_retries_total[10s])", "deriv(readmark_fanout_pending_followers[10s])",
                        "increase(kafka_consumer_coordinator_heartbeat_total{application=\"stream-processor\"}[10s])) == 0");
        assertThat(quick.lines().count()).isEqualTo(deployed.lines().count());
        assertThat(quick.replaceAll("for: \\S+|\\[\\d+[smh]]", "")).isEqualTo(deployed.replaceAll("for: \\S+|\\[\\d+[smh]]", ""));
    }

    @Test
    void shouldRefuseRulesWithoutPendingTimes() {
        assertThatThrownBy(() -> AlertRules.quickened("groups: []", Duration.ofSeconds(1), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
