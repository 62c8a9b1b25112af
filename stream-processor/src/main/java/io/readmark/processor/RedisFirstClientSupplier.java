package io.readmark.processor;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

import java.util.Map;

/** Kafka's default clients, except that the main consumer commits only after Redis acknowledged the writes. */
final class RedisFirstClientSupplier implements KafkaClientSupplier {

    private final KafkaClientSupplier defaults = new DefaultKafkaClientSupplier();
    private final ThreadWriters writers;
    private final ThreadCommits commits;

    RedisFirstClientSupplier(ThreadWriters writers, ThreadCommits commits) {
        this.writers = writers;
        this.commits = commits;
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return defaults.getAdmin(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return defaults.getProducer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return new RedisFirstConsumer(config, writers, commits);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return defaults.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return defaults.getGlobalConsumer(config);
    }
}
