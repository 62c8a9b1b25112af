package io.readmark.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class EventPublisherTest {

    @Test
    void defaultsWaitForAllReplicasWithoutDuplicatesAndNeverBlockUnbounded() {
        // When
        Map<String, Object> config = EventPublisher.producerConfig("kafka:9092", Map.of());

        // Then
        assertThat(config).containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "kafka:9092")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000)
                .containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        // Kafka rejects a delivery timeout shorter than linger + request timeout.
        assertThat((int) config.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG)).isLessThan(10_000);
    }

    @Test
    void overridesReplaceDefaults() {
        // Given
        Map<String, Object> overrides = Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 500, ProducerConfig.LINGER_MS_CONFIG, 20);

        // When
        Map<String, Object> config = EventPublisher.producerConfig("kafka:9092", overrides);

        // Then
        assertThat(config).containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 500)
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, 20)
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all");
    }
}
