package io.readmark.processor;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.Map;

/**
 * The stream thread's main consumer, which waits for Redis to acknowledge the thread's writes before any offset
 * commit. Kafka Streams commits from the thread that processed the records, so this covers every commit path
 * (interval, rebalance, shutdown) and an offset is never ahead of Redis.
 */
final class RedisFirstConsumer extends KafkaConsumer<byte[], byte[]> {

    private final ThreadWriters writers;
    private final ThreadCommits commits;

    RedisFirstConsumer(Map<String, Object> config, ThreadWriters writers, ThreadCommits commits) {
        super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.writers = writers;
        this.commits = commits;
    }

    @Override
    public void commitSync() {
        writers.awaitCurrentThread();
        super.commitSync();
        commits.committed();
    }

    @Override
    public void commitSync(Duration timeout) {
        writers.awaitCurrentThread();
        super.commitSync(timeout);
        commits.committed();
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        writers.awaitCurrentThread();
        super.commitSync(offsets);
        commits.committed();
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        writers.awaitCurrentThread();
        super.commitSync(offsets, timeout);
        commits.committed();
    }

    @Override
    public void commitAsync() {
        writers.awaitCurrentThread();
        super.commitAsync();
        commits.committed();
    }

    @Override
    public void commitAsync(OffsetCommitCallback callback) {
        writers.awaitCurrentThread();
        super.commitAsync(callback);
        commits.committed();
    }

    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        writers.awaitCurrentThread();
        super.commitAsync(offsets, callback);
        commits.committed();
    }
}
