package io.readmark.client;

import io.readmark.schemas.AllRead;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.BlogsRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.Followed;
import io.readmark.schemas.InboxSeen;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import io.readmark.schemas.Unfollowed;
import io.readmark.schemas.AudienceJoined;
import io.readmark.schemas.AudienceLeft;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.NoticeWithdrawn;
import io.readmark.schemas.NoticesAllRead;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Publishes events of the wire contract: each goes to {@link Topics#topicFor(Event)} keyed by
 * {@link Topics#keyOf(Event)}, acknowledged by all in-sync replicas through the idempotent producer, so events of one
 * key are stored in the order they were published. Every event type has a blocking method, which returns where the
 * event was stored or throws {@link PublishException}, and an asynchronous one whose future completes the same way;
 * both throw {@link InvalidEventException} before anything is sent for arguments that break the contract, an event dated
 * more than the {@link EventTimeLimit} (by default the processor's) past this machine's clock included. Nothing waits
 * unbounded: handing an event over takes at most {@code max.block.ms}, its acknowledgement at most
 * {@code delivery.timeout.ms} more (10 s each by default). Thread-safe; share one instance per application. Retrying
 * with the same {@code eventId} is always safe: the pipeline applies every event idempotently.
 */
public final class EventPublisher implements AutoCloseable {

    /** Upper bound for blocking in {@code send} and for delivery, unless overridden. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final Producer<String, Event> producer;
    private final Topics topics;
    private final Duration deliveryTimeout;
    private final EventTimeLimit eventTimes;

    private EventPublisher(Producer<String, Event> producer, Topics topics, Duration deliveryTimeout, EventTimeLimit eventTimes) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topics = Objects.requireNonNull(topics, "topics");
        this.deliveryTimeout = Objects.requireNonNull(deliveryTimeout, "deliveryTimeout");
        this.eventTimes = Objects.requireNonNull(eventTimes, "eventTimes");
    }

    /** A publisher with the safe defaults: {@code acks=all}, idempotence, 10 s timeouts. */
    public static EventPublisher connect(String bootstrapServers, Topics topics) {
        return connect(bootstrapServers, topics, Map.of());
    }

    /**
     * A publisher whose producer settings are the defaults with {@code overrides} on top (overrides win,
     * including over {@code acks} and the timeouts). Keys and values are always serialised by the contract serde.
     */
    public static EventPublisher connect(String bootstrapServers, Topics topics, Map<String, Object> overrides) {
        Map<String, Object> config = producerConfig(bootstrapServers, overrides);
        KafkaProducer<String, Event> producer =
                new KafkaProducer<>(config, new StringSerializer(), Topics.EVENT_SERDE.serializer());
        return new EventPublisher(producer, topics, Duration.ofMillis(millis(config.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG))),
                EventTimeLimit.DEFAULT);
    }

    /**
     * A publisher over a producer made elsewhere, such as a {@code MockProducer} in a test; it must write values with
     * {@link Topics#EVENT_SERDE}. Closing the publisher closes the producer; {@code deliveryTimeout} bounds
     * {@link #publishAndWait(Event)} and {@link #close()}.
     */
    public static EventPublisher over(Producer<String, Event> producer, Topics topics, Duration deliveryTimeout) {
        return new EventPublisher(producer, topics, deliveryTimeout, EventTimeLimit.DEFAULT);
    }

    /**
     * This publisher over the same producer, refusing events dated more than {@code limit} past this machine's clock:
     * set it to the processor's {@code READMARK_MAX_EVENT_SKEW} when that is not the default. Close only one of the two.
     */
    public EventPublisher withEventTimeLimit(EventTimeLimit limit) {
        return new EventPublisher(producer, topics, deliveryTimeout, limit);
    }

    static Map<String, Object> producerConfig(String bootstrapServers, Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Objects.requireNonNull(bootstrapServers, "bootstrapServers"));
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "readmark-publisher");
        // An acknowledged event must survive a broker loss, and producer retries must not duplicate or reorder it.
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // Kafka's defaults (60 s blocking, 120 s delivery) would leave callers waiting far longer than any HTTP client.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) DEFAULT_TIMEOUT.toMillis());
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) DEFAULT_TIMEOUT.toMillis());
        // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms, whose default alone is 30 s.
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) DEFAULT_TIMEOUT.toMillis() / 2);
        config.putAll(overrides);
        return config;
    }

    public Topics topics() {
        return topics;
    }

    /**
     * The Kafka producer underneath, for binding its client metrics to a metrics library. Typed so that nothing can be
     * sent through it: every event goes through this publisher's checks.
     */
    public Producer<?, ?> producer() {
        return producer;
    }

    /**
     * Sends {@code event} to its topic under its key. Every failure, including a timeout while waiting for
     * metadata, arrives through the future, which completes on the producer's I/O thread: keep non-async
     * dependent stages short.
     *
     * @throws InvalidEventException before sending, when the event is dated beyond the {@link EventTimeLimit}
     */
    public CompletableFuture<RecordMetadata> publish(Event event) {
        Objects.requireNonNull(event, "event");
        eventTimes.check(event, Instant.now());
        CompletableFuture<RecordMetadata> acknowledged = new CompletableFuture<>();
        ProducerRecord<String, Event> record =
                new ProducerRecord<>(topics.topicFor(event).name(), Topics.keyOf(event), event);
        try {
            producer.send(record, (metadata, error) -> {
                if (error != null) acknowledged.completeExceptionally(error);
                else acknowledged.complete(metadata);
            });
        } catch (RuntimeException e) {
            // send throws for some failures (closed producer, serialisation) and reports others to the callback;
            // callers should need only one error path.
            acknowledged.completeExceptionally(e);
        }
        return acknowledged;
    }

    /**
     * Sends {@code event} and waits until Kafka acknowledged it.
     *
     * @return where the event was stored
     * @throws PublishException when Kafka refused the event or did not acknowledge it within the delivery timeout,
     *                          or the calling thread was interrupted while waiting (its interrupt flag is kept)
     */
    public RecordMetadata publishAndWait(Event event) {
        CompletableFuture<RecordMetadata> acknowledged = publish(event);
        try {
            return acknowledged.get(deliveryTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new PublishException(event.eventId(), "Kafka did not store " + describe(event) + ": " + cause, cause);
        } catch (TimeoutException e) {
            throw new PublishException(event.eventId(),
                    "Kafka did not acknowledge " + describe(event) + " within " + deliveryTimeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException(event.eventId(), "interrupted while waiting for Kafka to store " + describe(event), e);
        }
    }

    /**
     * Sends {@code events} in list order, so events of one key are stored in that order, and returns one future per
     * event, in the same order. A {@code null} element, or one dated beyond the {@link EventTimeLimit}, fails the whole
     * call before anything is sent.
     *
     * <p>When an event cannot even be handed to the producer (no metadata within {@code max.block.ms}, the send
     * buffer stays full, the publisher is closed), the events after it are not sent and their futures fail with the
     * same error: an outage costs one {@code max.block.ms}, not one per event, and no event overtakes an earlier
     * one of the same key that failed this way.
     */
    public List<CompletableFuture<RecordMetadata>> publishAll(List<? extends Event> events) {
        List<? extends Event> checked = List.copyOf(events);
        List<CompletableFuture<RecordMetadata>> acknowledgements = futures(checked.size());
        publishAll(checked, () -> true, acknowledgements);
        return acknowledgements;
    }

    /**
     * {@link #publishAll(List)} that completes {@code acknowledgements} (one future per event, in the same order) as it
     * goes, so that another thread can wait for the first events while later ones are still being handed over, and
     * that stops sending once {@code keepSending} says no; the events not sent then fail with Kafka's
     * {@link org.apache.kafka.common.errors.TimeoutException}. Lets a caller with a deadline bound the time spent in
     * {@code send}, which may block for each event while Kafka is slow. Checks every event's time before sending any.
     */
    public void publishAll(List<? extends Event> events, BooleanSupplier keepSending,
                           List<CompletableFuture<RecordMetadata>> acknowledgements) {
        checkTimes(events);
        Throwable stopped = null;
        for (int i = 0; i < events.size(); i++) {
            CompletableFuture<RecordMetadata> target = acknowledgements.get(i);
            if (stopped == null && !keepSending.getAsBoolean()) {
                stopped = new org.apache.kafka.common.errors.TimeoutException(
                        "not sent: the deadline passed while earlier events were sent");
            }
            if (stopped != null) {
                target.completeExceptionally(stopped);
                continue;
            }
            CompletableFuture<RecordMetadata> acknowledged = publish(events.get(i));
            // Failures reported during send itself complete the future before send returns.
            if (acknowledged.isCompletedExceptionally()) stopped = acknowledged.exceptionNow();
            acknowledged.whenComplete((stored, error) -> {
                if (error != null) target.completeExceptionally(error);
                else target.complete(stored);
            });
        }
    }

    /** One incomplete future per event, for {@link #publishAll(List, BooleanSupplier, List)}. */
    public static List<CompletableFuture<RecordMetadata>> futures(int events) {
        List<CompletableFuture<RecordMetadata>> futures = new ArrayList<>(events);
        for (int i = 0; i < events; i++) futures.add(new CompletableFuture<>());
        return List.copyOf(futures);
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata blogPublished(String eventId, long blogId, long authorId, Instant publishedAt) {
        return publishAndWait(new BlogPublished(eventId, blogId, authorId, publishedAt));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> blogPublishedAsync(String eventId, long blogId, long authorId, Instant publishedAt) {
        return publish(new BlogPublished(eventId, blogId, authorId, publishedAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata blogDeleted(String eventId, long blogId, long authorId, Instant deletedAt) {
        return publishAndWait(new BlogDeleted(eventId, blogId, authorId, deletedAt));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> blogDeletedAsync(String eventId, long blogId, long authorId, Instant deletedAt) {
        return publish(new BlogDeleted(eventId, blogId, authorId, deletedAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata followed(String eventId, long followerId, long authorId, Instant at) {
        return publishAndWait(new Followed(eventId, followerId, authorId, at));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> followedAsync(String eventId, long followerId, long authorId, Instant at) {
        return publish(new Followed(eventId, followerId, authorId, at));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata unfollowed(String eventId, long followerId, long authorId, Instant at) {
        return publishAndWait(new Unfollowed(eventId, followerId, authorId, at));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> unfollowedAsync(String eventId, long followerId, long authorId, Instant at) {
        return publish(new Unfollowed(eventId, followerId, authorId, at));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata blogRead(String eventId, long userId, long blogId, long authorId, Instant readAt) {
        return publishAndWait(new BlogRead(eventId, userId, blogId, authorId, readAt));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> blogReadAsync(String eventId, long userId, long blogId, long authorId, Instant readAt) {
        return publish(new BlogRead(eventId, userId, blogId, authorId, readAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. {@code blogs}: 1 to {@value BlogsRead#MAX_BLOGS}. */
    public RecordMetadata blogsRead(String eventId, long userId, List<BlogsRead.Blog> blogs, Instant readAt) {
        return publishAndWait(new BlogsRead(eventId, userId, blogs, readAt));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> blogsReadAsync(String eventId, long userId, List<BlogsRead.Blog> blogs, Instant readAt) {
        return publish(new BlogsRead(eventId, userId, blogs, readAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata authorReadAll(String eventId, long userId, long authorId, Instant readAt) {
        return publishAndWait(new AuthorReadAll(eventId, userId, authorId, readAt));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> authorReadAllAsync(String eventId, long userId, long authorId, Instant readAt) {
        return publish(new AuthorReadAll(eventId, userId, authorId, readAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata allRead(String eventId, long userId, Instant readAt) {
        return publishAndWait(new AllRead(eventId, userId, readAt));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> allReadAsync(String eventId, long userId, Instant readAt) {
        return publish(new AllRead(eventId, userId, readAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata inboxSeen(String eventId, long userId, Instant seenAt) {
        return publishAndWait(new InboxSeen(eventId, userId, seenAt));
    }

    /** Returns at once; see {@link #publish(Event)}. */
    public CompletableFuture<RecordMetadata> inboxSeenAsync(String eventId, long userId, Instant seenAt) {
        return publish(new InboxSeen(eventId, userId, seenAt));
    }

    // Notices: blocking forms only; publish(Event) is the asynchronous form of each.

    /** Blocks until stored; see {@link #publishAndWait(Event)}. {@code expiresAt} may be null (no expiry). */
    public RecordMetadata noticePublished(String eventId, long noticeId, String audience, Instant publishedAt, Instant expiresAt) {
        return publishAndWait(new NoticePublished(eventId, noticeId, audience, publishedAt, expiresAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata noticeWithdrawn(String eventId, long noticeId, String audience, Instant withdrawnAt) {
        return publishAndWait(new NoticeWithdrawn(eventId, noticeId, audience, withdrawnAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata audienceJoined(String eventId, long userId, String audience, Instant at) {
        return publishAndWait(new AudienceJoined(eventId, userId, audience, at));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata audienceLeft(String eventId, long userId, String audience, Instant at) {
        return publishAndWait(new AudienceLeft(eventId, userId, audience, at));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata noticeSent(String eventId, long noticeId, List<Long> recipientIds, Instant sentAt) {
        return publishAndWait(new NoticeSent(eventId, noticeId, recipientIds, sentAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata noticeRead(String eventId, long userId, long noticeId, Instant readAt) {
        return publishAndWait(new NoticeRead(eventId, userId, noticeId, readAt));
    }

    /** Blocks until stored; see {@link #publishAndWait(Event)}. */
    public RecordMetadata noticesAllRead(String eventId, long userId, Instant readAt) {
        return publishAndWait(new NoticesAllRead(eventId, userId, readAt));
    }

    /** Waits for records already sent, at most as long as one delivery may take, then releases the connections. */
    @Override
    public void close() {
        producer.close(deliveryTimeout);
    }

    private void checkTimes(List<? extends Event> events) {
        Instant now = Instant.now();
        for (Event event : events) eventTimes.check(event, now);
    }

    private static String describe(Event event) {
        return event.typeName() + " " + event.eventId();
    }

    private static long millis(Object value) {
        return value instanceof Number number ? number.longValue() : Long.parseLong(String.valueOf(value).trim());
    }
}
