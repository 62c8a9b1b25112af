package io.readmark.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.readmark.common.config.Settings;
import io.readmark.schemas.Topics;

class ProducerApiConfigTest {

    @Test
    void nothingSetGivesTheDocumentedDefaults() {
        // Given an environment that only turns authentication off, which has no usable default
        Settings settings = Settings.of(Map.of(), Map.of("READMARK_AUTH", "off"));

        // When
        ProducerApiConfig config = ProducerApiConfig.from(settings);

        // Then
        assertThat(config.host()).isEqualTo("0.0.0.0");
        assertThat(config.port()).isEqualTo(8080);
        assertThat(config.bootstrapServers()).isEqualTo("localhost:9092");
        assertThat(config.topics().allNames()).isEqualTo(Topics.defaults().allNames());
        assertThat(config.ackTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.maxBodyBytes()).isEqualTo(65536);
        assertThat(config.maxBatchEvents()).isEqualTo(1000);
        assertThat(config.maxBatchBytes()).isEqualTo(1048576);
        assertThat(config.eventTimes().maxSkew()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void nothingSetAtAllFailsBecauseAuthenticationNeedsAKey() {
        // Given an empty environment
        Settings settings = Settings.of(Map.of(), Map.of());

        // When / Then
        assertThatThrownBy(() -> ProducerApiConfig.from(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("READMARK_AUTH=jwt needs one of AUTH_JWT_HS256_SECRET");
    }

    @Test
    void everySettingIsReadFromTheEnvironment() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of(
                "PRODUCER_API_HOST", "127.0.0.1",
                "PRODUCER_API_PORT", "9000",
                "KAFKA_BOOTSTRAP_SERVERS", "kafka-1:9092,kafka-2:9092",
                "READMARK_TOPIC_BLOG_EVENTS", "prod.blog-events",
                "PRODUCER_API_ACK_TIMEOUT", "PT2.5S",
                "PRODUCER_API_MAX_BODY_BYTES", "1024",
                "PRODUCER_API_MAX_BATCH_EVENTS", "500",
                "PRODUCER_API_MAX_BATCH_BYTES", "2097152",

                "AUTH_JWT_HS256_SECRET", "a-shared-secret-of-at-least-32-bytes",
                "AUTH_JWT_ISSUER", "https://issuer.example"));

        // When
        ProducerApiConfig config = ProducerApiConfig.from(settings);

        // Then
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(9000);
        assertThat(config.bootstrapServers()).isEqualTo("kafka-1:9092,kafka-2:9092");
        assertThat(config.topics().blogEvents().name()).isEqualTo("prod.blog-events");
        assertThat(config.topics().readEvents().name()).isEqualTo(Topics.DEFAULT_READ_EVENTS);
        assertThat(config.ackTimeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(config.maxBodyBytes()).isEqualTo(1024);
        assertThat(config.maxBatchEvents()).isEqualTo(500);
        assertThat(config.maxBatchBytes()).isEqualTo(2097152);
        assertThat(config.auth().enabled()).isTrue();
        assertThat(config.auth().issuer()).isEqualTo("https://issuer.example");
        assertThat(config.auth().audience()).as("the producer API's own audience by default").isEqualTo("readmark-producer");
    }

    @Test
    void theEventSkewIsTheSettingTheProcessorReadsToo() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("READMARK_AUTH", "off", "READMARK_MAX_EVENT_SKEW", "PT10M"));

        // When
        ProducerApiConfig config = ProducerApiConfig.from(settings);

        // Then
        assertThat(config.eventTimes().maxSkew()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void overridesWinOverTheEnvironment() {
        // Given
        Settings settings = Settings.of(Map.of("PRODUCER_API_PORT", "0"), Map.of("PRODUCER_API_PORT", "9000", "READMARK_AUTH", "off"));

        // When / Then: 0 is allowed and means "any free port"
        assertThat(ProducerApiConfig.from(settings).port()).isZero();
    }

    @Test
    void ackTimeoutMayBeGivenInMilliseconds() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("PRODUCER_API_ACK_TIMEOUT", "1500", "READMARK_AUTH", "off"));

        // When / Then
        assertThat(ProducerApiConfig.from(settings).ackTimeout()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void aPortOutOfRangeFailsNamingTheSetting() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("PRODUCER_API_PORT", "70000", "READMARK_AUTH", "off"));

        // When / Then
        assertThatThrownBy(() -> ProducerApiConfig.from(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PRODUCER_API_PORT");
    }

    @Test
    void aPortThatIsNoNumberFailsNamingTheSetting() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("PRODUCER_API_PORT", "http", "READMARK_AUTH", "off"));

        // When / Then
        assertThatThrownBy(() -> ProducerApiConfig.from(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PRODUCER_API_PORT");
    }

    @Test
    void aZeroAckTimeoutFailsNamingTheSetting() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("PRODUCER_API_ACK_TIMEOUT", "PT0S", "READMARK_AUTH", "off"));

        // When / Then
        assertThatThrownBy(() -> ProducerApiConfig.from(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PRODUCER_API_ACK_TIMEOUT");
    }

    @Test
    void aNonPositiveBodyLimitFailsNamingTheSetting() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("PRODUCER_API_MAX_BODY_BYTES", "0", "READMARK_AUTH", "off"));

        // When / Then
        assertThatThrownBy(() -> ProducerApiConfig.from(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PRODUCER_API_MAX_BODY_BYTES");
    }

    @ParameterizedTest
    @ValueSource(strings = {"PRODUCER_API_MAX_BATCH_EVENTS", "PRODUCER_API_MAX_BATCH_BYTES"})
    void aNonPositiveBatchLimitFailsNamingTheSetting(String setting) {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of(setting, "0"));

        // When / Then
        assertThatThrownBy(() -> ProducerApiConfig.from(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(setting);
    }

    @Test
    void aNonPositiveBatchLimitInCodeFailsNamingTheSetting() {
        // When / Then
        ProducerApiConfig config = ProducerApiConfig.onLoopback("kafka:9092", Topics.defaults());
        assertThatThrownBy(() -> config.withMaxBatchEvents(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PRODUCER_API_MAX_BATCH_EVENTS");
        assertThatThrownBy(() -> config.withMaxBatchBytes(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PRODUCER_API_MAX_BATCH_BYTES");
    }
}
