package io.readmark.client;

import io.readmark.testing.KafkaRecords;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.readmark.schemas.AllRead;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.BlogsRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Followed;
import io.readmark.schemas.InboxSeen;
import io.readmark.schemas.AudienceJoined;
import io.readmark.schemas.AudienceLeft;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.NoticeWithdrawn;
import io.readmark.schemas.NoticesAllRead;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import io.readmark.schemas.Unfollowed;

class EventPublisherIT {

    private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");

    private static Topics topics;
    @AutoClose
    private static EventPublisher publisher;

    @BeforeAll
    static void connect() {
        topics = Topics.from(KafkaRecords.createTopicsFor(EventPublisherIT.class));
        publisher = EventPublisher.connect(KafkaRecords.bootstrap(), topics);
    }

    @Test
    void blogPublishedLandsOnBlogEventsKeyedByAuthor() {
        // When
        RecordMetadata stored = publisher.blogPublished("pub-1", 101, 7, AT);

        // Then
        assertStored(stored, topics.blogEvents().name(), "7", new BlogPublished("pub-1", 101, 7, AT));
    }

    @Test
    void blogDeletedLandsOnBlogEventsKeyedByAuthor() {
        // When
        RecordMetadata stored = publisher.blogDeleted("del-1", 101, 8, AT);

        // Then
        assertStored(stored, topics.blogEvents().name(), "8", new BlogDeleted("del-1", 101, 8, AT));
    }

    @Test
    void followedLandsOnFollowEventsKeyedByAuthor() {
        // When
        RecordMetadata stored = publisher.followed("fol-1", 55, 9, AT);

        // Then
        assertStored(stored, topics.followEvents().name(), "9", new Followed("fol-1", 55, 9, AT));
    }

    @Test
    void unfollowedLandsOnFollowEventsKeyedByAuthor() {
        // When
        RecordMetadata stored = publisher.unfollowed("unf-1", 55, 10, AT);

        // Then
        assertStored(stored, topics.followEvents().name(), "10", new Unfollowed("unf-1", 55, 10, AT));
    }

    @Test
    void blogReadLandsOnReadEventsKeyedByReader() {
        // When
        RecordMetadata stored = publisher.blogRead("read-1", 300, 101, 7, AT);

        // Then
        assertStored(stored, topics.readEvents().name(), "300", new BlogRead("read-1", 300, 101, 7, AT));
    }

    @Test
    void blogsReadLandsOnReadEventsKeyedByReader() {
        // When
        List<BlogsRead.Blog> blogs = List.of(new BlogsRead.Blog(101, 7), new BlogsRead.Blog(102, 8));
        RecordMetadata stored = publisher.blogsRead("reads-1", 300, blogs, AT);

        // Then
        assertStored(stored, topics.readEvents().name(), "300", new BlogsRead("reads-1", 300, blogs, AT));
    }

    @Test
    void authorReadAllLandsOnReadEventsKeyedByReader() {
        // When
        RecordMetadata stored = publisher.authorReadAll("all-1", 301, 7, AT);

        // Then
        assertStored(stored, topics.readEvents().name(), "301", new AuthorReadAll("all-1", 301, 7, AT));
    }

    @Test
    void allReadAndInboxSeenLandOnReadEventsKeyedByReader() {
        RecordMetadata allRead = publisher.allRead("allr-1", 302, AT);
        RecordMetadata seen = publisher.inboxSeen("seen-1", 303, AT);

        assertStored(allRead, topics.readEvents().name(), "302", new AllRead("allr-1", 302, AT));
        assertStored(seen, topics.readEvents().name(), "303", new InboxSeen("seen-1", 303, AT));
    }

    @Test
    void noticeEventsLandOnNoticeEventsKeyedByAudienceOrNoticeAndNoticeReadsOnReadEvents() {
        RecordMetadata published = publisher.noticePublished("np-1", 501, "staff", AT, AT.plusSeconds(3600));
        RecordMetadata withdrawn = publisher.noticeWithdrawn("nw-1", 501, "staff", AT);
        RecordMetadata joined = publisher.audienceJoined("aj-1", 304, "staff", AT);
        RecordMetadata left = publisher.audienceLeft("al-1", 304, "staff", AT);
        RecordMetadata sent = publisher.noticeSent("ns-1", 502, java.util.List.of(304L, 305L), AT);
        RecordMetadata read = publisher.noticeRead("nr-1", 304, 502, AT);
        RecordMetadata allRead = publisher.noticesAllRead("nar-1", 305, AT);

        String notices = topics.noticeEvents().name();
        assertStored(published, notices, "staff", new NoticePublished("np-1", 501, "staff", AT, AT.plusSeconds(3600)));
        assertStored(withdrawn, notices, "staff", new NoticeWithdrawn("nw-1", 501, "staff", AT));
        assertStored(joined, notices, "staff", new AudienceJoined("aj-1", 304, "staff", AT));
        assertStored(left, notices, "staff", new AudienceLeft("al-1", 304, "staff", AT));
        assertStored(sent, notices, "502", new NoticeSent("ns-1", 502, java.util.List.of(304L, 305L), AT));
        assertStored(read, topics.readEvents().name(), "304", new NoticeRead("nr-1", 304, 502, AT));
        assertStored(allRead, topics.readEvents().name(), "305", new NoticesAllRead("nar-1", 305, AT));
    }

    @Test
    void everyAsyncVariantLandsWhereItsBlockingTwinDoes() throws Exception {
        // When
        RecordMetadata published = await(publisher.blogPublishedAsync("apub-1", 101, 7, AT));
        RecordMetadata deleted = await(publisher.blogDeletedAsync("adel-1", 101, 8, AT));
        RecordMetadata followed = await(publisher.followedAsync("afol-1", 55, 9, AT));
        RecordMetadata unfollowed = await(publisher.unfollowedAsync("aunf-1", 55, 10, AT));
        RecordMetadata read = await(publisher.blogReadAsync("aread-1", 300, 101, 7, AT));
        RecordMetadata readAll = await(publisher.authorReadAllAsync("aall-1", 301, 7, AT));
        RecordMetadata allRead = await(publisher.allReadAsync("aallr-1", 302, AT));
        RecordMetadata seen = await(publisher.inboxSeenAsync("aseen-1", 303, AT));
        RecordMetadata reads = await(publisher.blogsReadAsync("areads-1", 304, List.of(new BlogsRead.Blog(101, 7)), AT));

        // Then
        assertStored(published, topics.blogEvents().name(), "7", new BlogPublished("apub-1", 101, 7, AT));
        assertStored(deleted, topics.blogEvents().name(), "8", new BlogDeleted("adel-1", 101, 8, AT));
        assertStored(followed, topics.followEvents().name(), "9", new Followed("afol-1", 55, 9, AT));
        assertStored(unfollowed, topics.followEvents().name(), "10", new Unfollowed("aunf-1", 55, 10, AT));
        assertStored(read, topics.readEvents().name(), "300", new BlogRead("aread-1", 300, 101, 7, AT));
        assertStored(readAll, topics.readEvents().name(), "301", new AuthorReadAll("aall-1", 301, 7, AT));
        assertStored(allRead, topics.readEvents().name(), "302", new AllRead("aallr-1", 302, AT));
        assertStored(seen, topics.readEvents().name(), "303", new InboxSeen("aseen-1", 303, AT));
        assertStored(reads, topics.readEvents().name(), "304", new BlogsRead("areads-1", 304, List.of(new BlogsRead.Blog(101, 7)), AT));
    }

    @Test
    void eventsOfOneKeyKeepTheirOrderOnOnePartition() throws Exception {
        // Given two events of the same author, sent back to back
        CompletableFuture<RecordMetadata> first = publisher.blogPublishedAsync("order-1", 1, 42, AT);
        CompletableFuture<RecordMetadata> second = publisher.blogDeletedAsync("order-2", 1, 42, AT.plusSeconds(1));

        // When both are acknowledged
        RecordMetadata a = await(first);
        RecordMetadata b = await(second);

        // Then the delete is stored after the publish, where a consumer reads it second
        assertThat(b.partition()).isEqualTo(a.partition());
        assertThat(b.offset()).isGreaterThan(a.offset());
    }

    @Test
    void publishAllStoresEveryEventInListOrderWithOneFuturePerEvent() throws Exception {
        // Given events of two authors, interleaved
        List<Event> events = List.of(
                new BlogPublished("all-order-1", 1, 61, AT), new BlogPublished("all-order-2", 2, 62, AT),
                new BlogDeleted("all-order-3", 1, 61, AT.plusSeconds(1)), new BlogPublished("all-order-4", 3, 62, AT),
                new Followed("all-order-5", 70, 61, AT));

        // When
        List<CompletableFuture<RecordMetadata>> sent = publisher.publishAll(events);

        // Then each future tells where its own event is, and one author's blog events are stored in list order
        assertThat(sent).hasSize(events.size());
        List<RecordMetadata> stored = new ArrayList<>();
        for (CompletableFuture<RecordMetadata> future : sent) stored.add(await(future));
        for (int i = 0; i < events.size(); i++) {
            Event event = events.get(i);
            assertStored(stored.get(i), topics.topicFor(event).name(), Topics.keyOf(event), event);
        }
        assertThat(stored.get(2).partition()).isEqualTo(stored.get(0).partition());
        assertThat(stored.get(2).offset()).isGreaterThan(stored.get(0).offset());
        assertThat(stored.get(3).partition()).isEqualTo(stored.get(1).partition());
        assertThat(stored.get(3).offset()).isGreaterThan(stored.get(1).offset());
    }

    @Test
    void publishAllRefusesANullEventBeforeSendingAnything() {
        // Given
        List<Event> events = new ArrayList<>();
        events.add(new BlogPublished("never-1", 1, 7, AT));
        events.add(null);

        // When / Then
        assertThatThrownBy(() -> publisher.publishAll(events)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void invalidArgumentsAreRejectedBeforeAnythingIsSent() {
        // When / Then: blocking and asynchronous alike
        assertThatThrownBy(() -> publisher.blogPublished("bad-1", 0, 7, AT))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("blogId");
        assertThatThrownBy(() -> publisher.blogPublishedAsync("bad-2", 0, 7, AT))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("blogId");
        assertThatThrownBy(() -> publisher.followed("", 1, 2, AT))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("eventId");
        assertThatThrownBy(() -> publisher.blogReadAsync("bad-3", 1, 2, 3, null))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("readAt");
    }

    @Test
    void unreachableKafkaFailsTheFutureInsteadOfHanging() {
        // Given a publisher pointed at a port nothing listens on, with a short blocking bound
        try (EventPublisher stranded = strandedPublisher(500)) {

            // When
            long started = System.nanoTime();
            CompletableFuture<RecordMetadata> sent = stranded.blogPublishedAsync("lost-1", 1, 1, AT);

            // Then the failure arrives through the future, promptly
            assertThatThrownBy(() -> sent.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void unreachableKafkaMakesTheBlockingCallThrowPublishExceptionWithTheCause() {
        // Given
        try (EventPublisher stranded = strandedPublisher(500)) {

            // When
            long started = System.nanoTime();
            Throwable thrown = catchThrowable(() -> stranded.blogPublished("lost-2", 1, 1, AT));

            // Then
            assertThat(thrown).isInstanceOfSatisfying(PublishException.class, e -> {
                assertThat(e.eventId()).isEqualTo("lost-2");
                assertThat(e.getMessage()).contains("BlogPublished lost-2");
            }).hasCauseInstanceOf(TimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void unreachableKafkaFailsAWholePublishAllAfterOneBlockingBoundNotOnePerEvent() {
        // Given 10 events and a 1 s bound per send: sending each one would take at least 10 s
        List<Event> events = new ArrayList<>();
        for (int i = 1; i <= 10; i++) events.add(new BlogPublished("lost-all-" + i, i, 7, AT));
        try (EventPublisher stranded = strandedPublisher(1_000)) {

            // When
            long started = System.nanoTime();
            List<CompletableFuture<RecordMetadata>> sent = stranded.publishAll(events);
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            // Then every future fails with Kafka's timeout, and the call gave up after the first event
            assertThat(sent).hasSize(10).allSatisfy(future -> assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class));
            assertThat(took).isLessThan(Duration.ofSeconds(5));
        }
    }

    private static EventPublisher strandedPublisher(int maxBlockMillis) {
        String nowhere = "127.0.0.1:" + KafkaRecords.unusedLocalPort();
        return EventPublisher.connect(nowhere, topics, Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlockMillis));
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
