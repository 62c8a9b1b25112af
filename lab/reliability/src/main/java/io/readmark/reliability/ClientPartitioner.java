package io.readmark.reliability;

import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;
import java.util.zip.CRC32;

/**
 * How the Kafka clients that platforms run pick a record's partition by default, so the workload can mix them as a
 * platform whose services use different clients would: the processor must co-partition an author's follows and posts
 * whatever each producer chose.
 */
enum ClientPartitioner {
    /** The Java client (and the producer API): murmur2 of the key. */
    JAVA_MURMUR2,
    /** librdkafka's default {@code consistent_random} (kcat, confluent-kafka for Python, Go and .NET): CRC32 of the key. */
    LIBRDKAFKA_CRC32,
    /** Sarama's default hash partitioner (Go): 32-bit FNV-1a of the key. */
    SARAMA_FNV1A,
    /** Any partition, as segmentio/kafka-go's round-robin default or a keyless producer spreads records. */
    RANDOM;

    /** The partition of a record with {@code key}; {@link #RANDOM} draws it from {@code random}, the others ignore it. */
    int partitionOf(String key, int partitions, RandomGenerator random) {
        return this == RANDOM ? random.nextInt(partitions) : partitionOf(key, partitions);
    }

    /** The partition a hashing partitioner gives {@code key}; not for {@link #RANDOM}. */
    int partitionOf(String key, int partitions) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return switch (this) {
            case JAVA_MURMUR2 -> Utils.toPositive(Utils.murmur2(bytes)) % partitions;
            case LIBRDKAFKA_CRC32 -> {
                CRC32 crc = new CRC32();
                crc.update(bytes);
                yield (int) (crc.getValue() % partitions);
            }
            case SARAMA_FNV1A -> {
                int hash = 0x811c9dc5;
                for (byte b : bytes) {
                    hash ^= b & 0xff;
                    hash *= 0x01000193;
                }
                // Sarama takes the absolute value of the signed remainder.
                yield Math.abs(hash % partitions);
            }
            case RANDOM -> throw new IllegalArgumentException("RANDOM draws a partition, it has none for a key");
        };
    }
}
