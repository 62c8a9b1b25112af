package io.readmark.reliability;

import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.Event;
import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.NoticeEvent;
import io.readmark.schemas.ReadEvent;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends events straight to Kafka the way a platform's services would: keyed by the event's key id, acks=all and
 * idempotent, so each partition holds the records in the order they were sent, each once; each kind of event with the
 * default partitioner of another client ({@link #partitionerOf}), so that nothing lands where the processor needs it.
 * Counts the records sent.
 */
final class EventProducer implements AutoCloseable {

    /** A record as it was sent, so that a duplicate is exactly the same key, bytes and timestamp. */
    record Sent(String topic, int partition, String key, byte[] value, long timestamp) {
    }

    private final KafkaProducer<String, byte[]> producer;
    private final Topics topics;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    /** The partitions of the records spread at random, drawn from the run's seed so that a run's orders repeat. */
    private final SplittableRandom partitionDraws;

    EventProducer(String bootstrapServers, Topics topics, long seed) {
        this.topics = topics;
        this.partitionDraws = new SplittableRandom(seed);
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                // A broker restart must hold the workload up, not fail it: both far above the longest outage caused.
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Duration.ofMinutes(5).toMillis(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG, Duration.ofMinutes(5).toMillis(),
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.CLIENT_ID_CONFIG, "readmark-workload"),
                new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Follows as librdkafka clients send them or spread at random, posts from the Java client or spread at random,
     * deletes and reads from Sarama, notices from librdkafka. Most pairs' follows and unfollows keep their order (one
     * partition per author), but a third of the followers' go to any partition, so a follow, unfollow and re-follow of
     * one pair may be processed in any order; follows rarely share a partition number with the author's posts.
     */
    static ClientPartitioner partitionerOf(Event event) {
        return switch (event) {
            case FollowEvent follow -> follow.followerId() % 3 == 0 ? ClientPartitioner.RANDOM : ClientPartitioner.LIBRDKAFKA_CRC32;
            case BlogPublished published -> published.blogId() % 2 == 0 ? ClientPartitioner.JAVA_MURMUR2 : ClientPartitioner.RANDOM;
            case BlogDeleted ignored -> ClientPartitioner.SARAMA_FNV1A;
            case ReadEvent ignored -> ClientPartitioner.SARAMA_FNV1A;
            case NoticeEvent ignored -> ClientPartitioner.LIBRDKAFKA_CRC32;
        };
    }

    /** Sends the event with {@code timestamp} as its record timestamp. */
    Sent send(Event event, long timestamp) {
        String topic = topics.topicFor(event).name();
        String key = Topics.keyOf(event);
        int partitions = producer.partitionsFor(topic).size();
        int partition;
        synchronized (partitionDraws) {
            partition = partitionerOf(event).partitionOf(key, partitions, partitionDraws);
        }
        Sent record = new Sent(topic, partition, key, Topics.EVENT_SERDE.serialize(null, event), timestamp);
        resend(record);
        return record;
    }

    /** Sends the same record again: a duplicate, as a producer retry or a replaying client would. */
    void resend(Sent record) {
        producer.send(new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), record.key(), record.value()),
                (metadata, error) -> {
                    if (error != null) failure.compareAndSet(null, error);
                });
        sent.incrementAndGet();
    }

    /**
     * Returns once Kafka acknowledged every record sent so far.
     *
     * @throws IllegalStateException if Kafka refused one: the workload and its model would no longer agree
     */
    void flush() {
        producer.flush();
        Exception error = failure.get();
        if (error != null) throw new IllegalStateException("Kafka did not store a workload record", error);
    }

    long sent() {
        return sent.get();
    }

    @Override
    public void close() {
        producer.close();
    }
}
