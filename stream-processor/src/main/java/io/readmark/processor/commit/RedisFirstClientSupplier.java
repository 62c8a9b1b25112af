package io.readmark.processor.commit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

import java.util.Map;

/**
 * The clients of a Kafka Streams application that writes to Redis: plain Kafka clients, except that the producer's
 * {@link Producer#flush() flush} first waits for Redis to acknowledge every write of the calling stream thread.
 * <p>
 * At least once, Kafka Streams flushes a stream thread's producer, on that thread, before it commits the input
 * offsets of the records processed since the last commit — on every commit path (interval, rebalance, shutdown);
 * otherwise a crash after the commit could lose their output. Making Redis part of that flush puts every offset
 * behind Redis (docs/ARCHITECTURE.md, Guarantees 4). Every flush that returns also counts in {@link ThreadCommits}:
 * what the thread forwarded before it is then durable in Kafka.
 */
public final class RedisFirstClientSupplier implements KafkaClientSupplier {

    private final WriterPerThread writers;
    private final ThreadCommits commits;

    public RedisFirstClientSupplier(WriterPerThread writers, ThreadCommits commits) {
        this.writers = writers;
        this.commits = commits;
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new RedisFirstProducer(config, writers, commits);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return bytesConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return bytesConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return bytesConsumer(config);
    }

    private static Consumer<byte[], byte[]> bytesConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A stream thread's producer: its flush is behind Redis. */
    static final class RedisFirstProducer extends KafkaProducer<byte[], byte[]> {

        private final WriterPerThread writers;
        private final ThreadCommits commits;

        RedisFirstProducer(Map<String, Object> config, WriterPerThread writers, ThreadCommits commits) {
            super(config, new ByteArraySerializer(), new ByteArraySerializer());
            this.writers = writers;
            this.commits = commits;
        }

        /** Waits for Redis to acknowledge the calling thread's writes, then for Kafka to acknowledge the sends. */
        @Override
        public void flush() {
            writers.awaitCurrentThread();
            super.flush();
            commits.flushed();
        }
    }
}
