package io.readmark.view;

import io.readmark.common.http.HttpLimits;
import io.readmark.view.push.StreamSettings;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileLimitTest {

    @Test
    void shouldStartWhenTheLimitHoldsStreamsConnectionsAndTheMargin() {
        assertThatCode(() -> FileLimit.check(10_000, 4_096, OptionalLong.of(10_000 + 4_096 + FileLimit.MARGIN)))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldRefuseToStartBelowThemNamingBothSettingsAndTheLimit() {
        assertThatThrownBy(() -> FileLimit.check(10_000, 4_096, OptionalLong.of(1_024)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(StreamSettings.MAX_STREAMS + " (10000)")
                .hasMessageContaining(HttpLimits.MAX_CONNECTIONS + " (4096)")
                .hasMessageContaining("limit of 1024")
                .hasMessageNotContaining("\n");
    }

    @Test
    void shouldStartWhereThePlatformReportsNoLimit() {
        assertThatCode(() -> FileLimit.check(10_000, 4_096, OptionalLong.empty())).doesNotThrowAnyException();
    }
}
