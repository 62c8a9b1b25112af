package io.readmark.common.config;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaClientSettingsTest {

    @Test
    void shouldTurnEachPrefixedSettingIntoTheClientPropertyOfItsName() {
        Settings settings = Settings.of(Map.of("KAFKA_CLIENT_SASL_MECHANISM", "SCRAM-SHA-512"),
                Map.of("KAFKA_CLIENT_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_CLIENT_SSL_TRUSTSTORE_LOCATION", "/etc/kafka/ca.p12",
                        "KAFKA_BOOTSTRAP_SERVERS", "kafka:9093", "KAFKA_CLIENT_SSL_KEY_PASSWORD", " "));

        assertThat(KafkaClientSettings.from(settings).properties()).isEqualTo(Map.of(
                "security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512", "ssl.truststore.location", "/etc/kafka/ca.p12"));
        assertThat(settings.namesLookedUp()).contains(KafkaClientSettings.FILE, "KAFKA_CLIENT_SECURITY_PROTOCOL");
    }

    @Test
    void shouldLetASettingWinOverTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kafka-client.properties");
        Files.writeString(file, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n");
        Settings settings = Settings.of(Map.of(), Map.of(KafkaClientSettings.FILE, file.toString(),
                "KAFKA_CLIENT_SASL_MECHANISM", "SCRAM-SHA-256"));

        assertThat(KafkaClientSettings.from(settings).properties())
                .isEqualTo(Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-256"));
    }

    @Test
    void shouldRefuseWhatTheGuaranteesRestOnNamingTheSetting(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kafka-client.properties");
        Files.writeString(file, "producer.enable.idempotence=false\n");

        assertThatThrownBy(() -> KafkaClientSettings.from(Settings.of(Map.of(), Map.of("KAFKA_CLIENT_ACKS", "1"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("KAFKA_CLIENT_ACKS sets acks");
        assertThatThrownBy(() -> KafkaClientSettings.from(Settings.of(Map.of(), Map.of("KAFKA_CLIENT_MAIN_CONSUMER_ISOLATION_LEVEL",
                "read_committed")))).hasMessageContaining("main.consumer.isolation.level");
        assertThatThrownBy(() -> KafkaClientSettings.from(Settings.of(Map.of(), Map.of(KafkaClientSettings.FILE, file.toString()))))
                .hasMessageContaining(KafkaClientSettings.FILE).hasMessageContaining("producer.enable.idempotence");
        assertThatThrownBy(() -> KafkaClientSettings.from(Settings.of(Map.of(), Map.of("KAFKA_CLIENT_PROCESSING_EXCEPTION_HANDLER",
                "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler")))).hasMessageContaining("processing.exception.handler");
        assertThatThrownBy(() -> KafkaClientSettings.from(Settings.of(Map.of(), Map.of("KAFKA_CLIENT_AUTO_OFFSET_RESET", "latest"))))
                .hasMessageContaining("auto.offset.reset");
    }

    @Test
    void shouldRefuseAPropertyTheClientSetsItselfRatherThanIgnoreIt() {
        KafkaClientSettings client = KafkaClientSettings.from(Settings.of(Map.of(),
                Map.of("KAFKA_CLIENT_REQUEST_TIMEOUT_MS", "60000", "KAFKA_CLIENT_SECURITY_PROTOCOL", "SSL")));

        assertThat(client.under(Map.of("client.id", "health"))).isEqualTo(Map.of("client.id", "health",
                "request.timeout.ms", "60000", "security.protocol", "SSL"));
        Properties own = new Properties();
        own.put("request.timeout.ms", 2000);
        assertThatThrownBy(() -> client.under(own)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("KAFKA_CLIENT_REQUEST_TIMEOUT_MS sets request.timeout.ms");

        // Kafka Streams ranks the prefixed forms: any form of a property the client sets is refused.
        KafkaClientSettings session = KafkaClientSettings.from(Settings.of(Map.of(),
                Map.of("KAFKA_CLIENT_MAIN_CONSUMER_SESSION_TIMEOUT_MS", "60000")));
        assertThatThrownBy(() -> session.under(Map.of("consumer.session.timeout.ms", 10000)))
                .hasMessageContaining("main.consumer.session.timeout.ms");
    }

    @Test
    void shouldLeaveSecretsToKafkasConfigProviders(@TempDir Path dir) throws Exception {
        Path secrets = dir.resolve("kafka-secrets.properties");
        Files.writeString(secrets, "password=s3cret\n");
        KafkaClientSettings client = KafkaClientSettings.from(Settings.of(Map.of(), Map.of(
                "KAFKA_CLIENT_CONFIG_PROVIDERS", "file",
                "KAFKA_CLIENT_CONFIG_PROVIDERS_FILE_CLASS", "org.apache.kafka.common.config.provider.FileConfigProvider",
                "KAFKA_CLIENT_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"processor\" password=\"${file:" + secrets + ":password}\";")));

        AdminClientConfig resolved = new AdminClientConfig(client.under(Map.of("bootstrap.servers", "kafka:9092")));

        assertThat(resolved.getPassword(SaslConfigs.SASL_JAAS_CONFIG).value()).contains("password=\"s3cret\"");
        assertThat(client.toString()).as("what a log line would show").doesNotContain("s3cret", "processor");
    }
}
