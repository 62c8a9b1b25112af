package io.readmark.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Topics;
import io.readmark.schemas.Unfollowed;

class EventPublisherIT {

    private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");

    private static Topics topics;
    private static EventPublisher publisher;

    @BeforeAll
    static void connect() {
        // When
        topics = KafkaRecords.createTopicsFor(EventPublisherIT.class);
        publisher = EventPublisher.connect(KafkaRecords.bootstrap(), topics);
    }

        // Then
    @AfterAll
    static void disconnect() {
        if (publisher != null) publisher.close();
    }

    @Test
    void blogPublishedLandsOnBlogEventsKeyedByAuthor() throws Exception {
        // Given / When
        RecordMetadata stored = await(publisher.blogPublished("pub-1", 101, 7, AT));

        // Then
        assertStored(stored, topics.blogEvents().name(), "7", new BlogPublished("pub-1", 101, 7, AT));
    }

    @Test
    void blogDeletedLandsOnBlogEventsKeyedByAuthor() throws Exception {
        // When
        RecordMetadata stored = await(publisher.blogDeleted("del-1", 101, 8, AT));

        // Then
        assertStored(stored, topics.blogEvents().name(), "8", new BlogDeleted("del-1", 101, 8, AT));
    }

    @Test
    void followedLandsOnFollowEventsKeyedByAuthor() throws Exception {
        // When
        RecordMetadata stored = await(publisher.followed("fol-1", 55, 9, AT));

        // Then
        assertStored(stored, topics.followEvents().name(), "9", new Followed("fol-1", 55, 9, AT));
    }

    @Test
    void unfollowedLandsOnFollowEventsKeyedByAuthor() throws Exception {
        // When
        RecordMetadata stored = await(publisher.unfollowed("unf-1", 55, 10, AT));

        // Then
        assertStored(stored, topics.followEvents().name(), "10", new Unfollowed("unf-1", 55, 10, AT));
    }

    @Test
    void blogReadLandsOnReadEventsKeyedByReader() throws Exception {
        // When
        RecordMetadata stored = await(publisher.blogRead("read-1", 300, 101, 7, AT));

        // Then
        assertStored(stored, topics.readEvents().name(), "300", new BlogRead("read-1", 300, 101, 7, AT));
    }

    @Test
    void authorReadAllLandsOnReadEventsKeyedByReader() throws Exception {
        // When
        RecordMetadata stored = await(publisher.authorReadAll("all-1", 301, 7, AT));

        // Then
        assertStored(stored, topics.readEvents().name(), "301", new AuthorReadAll("all-1", 301, 7, AT));
    }

    @Test
    void eventsOfOneKeyKeepTheirOrderOnOnePartition() throws Exception {
        // Given two events of the same author, sent back to back
        CompletableFuture<RecordMetadata> first = publisher.blogPublished("order-1", 1, 42, AT);
        CompletableFuture<RecordMetadata> second = publisher.blogDeleted("order-2", 1, 42, AT.plusSeconds(1));

        // When both are acknowledged
        RecordMetadata a = await(first);
        RecordMetadata b = await(second);

        // Then the delete is stored after the publish, where a consumer reads it second
        assertThat(b.partition()).isEqualTo(a.partition());
        assertThat(b.offset()).isGreaterThan(a.offset());
    }

    @Test
    void invalidArgumentsAreRejectedBeforeAnythingIsSent() {
        // When / Then
        assertThatThrownBy(() -> publisher.blogPublished("bad-1", 0, 7, AT))
                .hasMessageContaining("blogId");
        assertThatThrownBy(() -> publisher.followed("", 1, 2, AT))
                .hasMessageContaining("eventId");
    }

    @Test
    void unreachableKafkaFailsTheFutureInsteadOfHanging() {
        // Given a publisher pointed at a port nothing listens on, with a short blocking bound
        String nowhere = "127.0.0.1:" + KafkaRecords.unusedLocalPort();
        try (EventPublisher stranded = EventPublisher.connect(nowhere, topics,
                Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 500))) {

            // When
            long started = System.nanoTime();
            CompletableFuture<RecordMetadata> sent = stranded.blogPublished("lost-1", 1, 1, AT);

            // Then the failure arrives through the future, promptly
            assertThatThrownBy(() -> sent.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        }
    }

    private static RecordMetadata await(CompletableFuture<RecordMetadata> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }

    private static void assertStored(RecordMetadata stored, String topic, String key, Event expected) {
        assertThat(stored.topic()).isEqualTo(topic);
        ConsumerRecord<String, byte[]> record = KafkaRecords.at(stored.topic(), stored.partition(), stored.offset());
        assertThat(record.topic()).isEqualTo(topic);
        assertThat(record.key()).isEqualTo(key);
        assertThat(Topics.EVENT_SERDE.decode(record.value())).isEqualTo(expected);
    }
}
