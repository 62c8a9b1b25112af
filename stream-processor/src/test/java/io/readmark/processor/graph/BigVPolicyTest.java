package io.readmark.processor.graph;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BigVPolicyTest {

    private final BigVPolicy policy = new BigVPolicy(10_000, 9_000);

    @Test
    void shouldBecomeBigVAtTheThresholdAndLeaveOnlyBelowTheReleaseLevel() {
        assertThat(policy.isBigV(9_999, false)).isFalse();
        assertThat(policy.isBigV(10_000, false)).isTrue();
        assertThat(policy.isBigV(9_500, true)).as("between the two levels it keeps its class").isTrue();
        assertThat(policy.isBigV(9_500, false)).isFalse();
        assertThat(policy.isBigV(8_999, true)).isFalse();
    }

    @Test
    void shouldRejectAReleaseLevelAboveTheThreshold() {
        assertThatThrownBy(() -> new BigVPolicy(100, 200)).hasMessageContaining("release");
        assertThat(BigVPolicy.withThreshold(10_000).releaseBelow()).isEqualTo(9_000);
    }
}
