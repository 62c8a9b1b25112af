package io.readmark.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.readmark.schemas.AllRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
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

    @Test
    void shouldRefuseAnEventDatedBeyondTheSkewBeforeSendingAnything() {
        // Given
        MockProducer<String, Event> producer = new MockProducer<>(true, null, new StringSerializer(), Topics.EVENT_SERDE.serializer());
        Instant now = Instant.now();
        AllRead sane = new AllRead("sane", 101, now.plusSeconds(60));
        AllRead farAhead = new AllRead("far-ahead", 101, now.plus(Duration.ofDays(2)));

        try (EventPublisher publisher = EventPublisher.over(producer, Topics.defaults(), Duration.ofSeconds(1))) {
            // When, Then
            assertThatThrownBy(() -> publisher.publishAll(List.of(sane, farAhead)))
                    .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.field()).isEqualTo("readAt"));
            assertThatThrownBy(() -> publisher.publish(farAhead)).isInstanceOf(InvalidEventException.class);
            assertThat(producer.history()).isEmpty();

            publisher.publishAndWait(sane);
            publisher.withEventTimeLimit(new EventTimeLimit(Duration.ofDays(3))).publishAndWait(farAhead);
            assertThat(producer.history()).extracting(record -> record.value().eventId()).containsExactly("sane", "far-ahead");
        }
    }
}
