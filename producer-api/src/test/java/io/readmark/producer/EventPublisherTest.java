package io.readmark.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import io.readmark.schemas.BlogRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Topics;

class EventPublisherTest {

    private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");

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
    void publishSendsToTheEventsTopicUnderItsKey() {
        // Given
        MockProducer<String, Event> mock = mockProducer(true);
        Topics topics = Topics.defaults();
        try (EventPublisher publisher = new EventPublisher(mock, topics, Duration.ofSeconds(1))) {

            // When
            CompletableFuture<RecordMetadata> sent = publisher.blogRead("r-1", 300, 101, 7, AT);

            // Then
            assertThat(sent).isCompleted();
            assertThat(mock.history()).singleElement().satisfies(record -> {
                assertThat(record.topic()).isEqualTo("read-events");
                assertThat(record.key()).isEqualTo("300");
                assertThat(record.value()).isEqualTo(new BlogRead("r-1", 300, 101, 7, AT));
            });
        }
    }

    @Test
    void aBrokerErrorFailsTheFuture() {
        // Given a producer whose next send fails
        MockProducer<String, Event> mock = mockProducer(false);
        try (EventPublisher publisher = new EventPublisher(mock, Topics.defaults(), Duration.ofSeconds(1))) {
            CompletableFuture<RecordMetadata> sent = publisher.followed("f-1", 1, 2, AT);

            // When
            mock.errorNext(new NetworkException("broker gone"));

            // Then
            assertThat(sent).isCompletedExceptionally();
            assertThat(sent.exceptionNow()).isInstanceOf(NetworkException.class);
        }
    }

    @Test
    void aSendThatThrowsFailsTheFutureInsteadOfTheCaller() {
        // Given a closed producer, whose send throws rather than calling back
        MockProducer<String, Event> mock = mockProducer(true);
        EventPublisher publisher = new EventPublisher(mock, Topics.defaults(), Duration.ofSeconds(1));
        publisher.close();

        // When
        CompletableFuture<RecordMetadata> sent = publisher.authorReadAll("a-1", 1, 2, AT);

        // Then
        assertThat(sent).isCompletedExceptionally();
    }

    private static MockProducer<String, Event> mockProducer(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), Topics.EVENT_SERDE.serializer());
    }
}
