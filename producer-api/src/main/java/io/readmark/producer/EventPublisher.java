package io.readmark.producer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Topics;
import io.readmark.schemas.Unfollowed;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Publishes events of the wire contract: each goes to {@link Topics#topicFor(Event)} keyed by
 * {@link Topics#keyOf(Event)}, acknowledged by all in-sync replicas, and every returned future completes
 * (with metadata or an error) within a bounded time instead of hanging.
 *
 * <pre>{@code
 * try (EventPublisher publisher = EventPublisher.connect("localhost:9092", Topics.defaults())) {
 *     RecordMetadata stored = publisher.blogPublished("blog-42-published", 42, 7, Instant.now())
 *             .get(10, TimeUnit.SECONDS); // or compose the future asynchronously
 *     System.out.println("blog 42 stored at offset " + stored.offset());
 * }
 * }</pre>
 *
 * <p>Thread-safe; share one instance per application. Retrying with the same {@code eventId} is always safe:
 * the pipeline applies every event idempotently. {@link #bindTo} publishes the producer's client metrics (send
 * rate, errors, retries, latency, buffer use) to a Micrometer registry.
 */
public final class EventPublisher implements MeterBinder, AutoCloseable {

    /** Upper bound for blocking in {@code send} and for delivery, unless overridden. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final Producer<String, Event> producer;
    private final Topics topics;
    private final Duration closeTimeout;
    private final List<KafkaClientMetrics> clientMetrics = new CopyOnWriteArrayList<>();

    EventPublisher(Producer<String, Event> producer, Topics topics, Duration closeTimeout) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topics = Objects.requireNonNull(topics, "topics");
        this.closeTimeout = Objects.requireNonNull(closeTimeout, "closeTimeout");
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
        return new EventPublisher(producer, topics, Duration.ofMillis(millis(config.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG))));
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

    /** Publishes the producer's client metrics ({@code kafka.producer.*}) to {@code registry} until closed. */
    @Override
    public void bindTo(MeterRegistry registry) {
        KafkaClientMetrics metrics = new KafkaClientMetrics(producer);
        clientMetrics.add(metrics);
        metrics.bindTo(registry);
    }

    /**
     * Sends {@code event} to its topic under its key. Every failure, including a timeout while waiting for
     * metadata, arrives through the future, which completes on the producer's I/O thread: keep non-async
     * dependent stages short.
     */
    public CompletableFuture<RecordMetadata> publish(Event event) {
        Objects.requireNonNull(event, "event");
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

    /** Throws {@link io.readmark.schemas.InvalidEventException} at once for arguments that break the contract. */
    public CompletableFuture<RecordMetadata> blogPublished(String eventId, long blogId, long authorId, Instant publishedAt) {
        return publish(new BlogPublished(eventId, blogId, authorId, publishedAt));
    }

    public CompletableFuture<RecordMetadata> blogDeleted(String eventId, long blogId, long authorId, Instant deletedAt) {
        return publish(new BlogDeleted(eventId, blogId, authorId, deletedAt));
    }

    public CompletableFuture<RecordMetadata> followed(String eventId, long followerId, long authorId, Instant at) {
        return publish(new Followed(eventId, followerId, authorId, at));
    }

    public CompletableFuture<RecordMetadata> unfollowed(String eventId, long followerId, long authorId, Instant at) {
        return publish(new Unfollowed(eventId, followerId, authorId, at));
    }

    public CompletableFuture<RecordMetadata> blogRead(String eventId, long userId, long blogId, long authorId, Instant readAt) {
        return publish(new BlogRead(eventId, userId, blogId, authorId, readAt));
    }

    public CompletableFuture<RecordMetadata> authorReadAll(String eventId, long userId, long authorId, Instant readAt) {
        return publish(new AuthorReadAll(eventId, userId, authorId, readAt));
    }

    /** Waits for records already sent, at most as long as one delivery may take, then releases the connections. */
    @Override
    public void close() {
        clientMetrics.forEach(KafkaClientMetrics::close);
        producer.close(closeTimeout);
    }

    private static long millis(Object value) {
        return value instanceof Number number ? number.longValue() : Long.parseLong(String.valueOf(value).trim());
    }
}
