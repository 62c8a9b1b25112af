package io.readmark.common.http;

import io.readmark.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpLimitsTest {

    @Test
    void theLimitPerClientIsAQuarterOfTheConnectionsUnlessSet() {
        // Given the producer API's defaults, and an operator raising its connections
        HttpLimits producer = HttpLimits.defaults().withMaxConnections(256);
        Settings raised = Settings.of(Map.of(), Map.of("HTTP_MAX_CONNECTIONS", "1000"));

        // When / Then
        assertThat(HttpLimits.defaults().maxConnectionsPerClient()).isEqualTo(1_024);
        assertThat(HttpLimits.from(Settings.of(Map.of(), Map.of()), producer).maxConnectionsPerClient()).isEqualTo(64);
        assertThat(HttpLimits.from(raised, producer).maxConnectionsPerClient()).isEqualTo(250);
        assertThat(HttpLimits.defaults().firstByteTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aCallersLimitPerClientHoldsUnlessTheConnectionsAreSet() {
        // Given defaults with no limit per client (a server behind a load balancer)
        HttpLimits unlimited = HttpLimits.defaults().withMaxConnections(256, 0);

        // When / Then
        assertThat(HttpLimits.from(Settings.of(Map.of(), Map.of()), unlimited).maxConnectionsPerClient()).isZero();
        assertThat(HttpLimits.from(Settings.of(Map.of(), Map.of("HTTP_MAX_CONNECTIONS", "1000")), unlimited)
                .maxConnectionsPerClient()).as("the connections set: a quarter of them").isEqualTo(250);
    }

    @Test
    void theLimitPerClientAndTheFirstByteDeadlineAreRead() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("HTTP_MAX_CONNECTIONS_PER_CLIENT", "0",
                "HTTP_FIRST_BYTE_TIMEOUT", "PT2S"));

        // When
        HttpLimits limits = HttpLimits.from(settings);

        // Then
        assertThat(limits.maxConnectionsPerClient()).as("0: no limit, behind a load balancer").isZero();
        assertThat(limits.firstByteTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aNegativeLimitPerClientIsRefusedNamingTheSetting() {
        Settings settings = Settings.of(Map.of(), Map.of("HTTP_MAX_CONNECTIONS_PER_CLIENT", "-1"));

        assertThatThrownBy(() -> HttpLimits.from(settings)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HTTP_MAX_CONNECTIONS_PER_CLIENT");
    }
}
