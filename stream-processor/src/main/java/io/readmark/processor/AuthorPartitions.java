package io.readmark.processor;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.StreamPartitioner;

import java.util.Optional;
import java.util.Set;

/**
 * Where an author's follows and posts meet: the processor re-partitions both onto its own internal topic by author, so
 * they share one task (and its follower graph) whatever partitioner and partition counts the producers used. The
 * partition is Kafka's murmur2 of the author id's decimal string, the hash of the Java client's default partitioner,
 * so a deployment whose producers all used that hash finds its authors where they were.
 */
public final class AuthorPartitions {

    /** Names the internal topic {@code <application id>-author-events-repartition}, and its nodes. */
    static final String NAME = "author-events";

    private AuthorPartitions() {
    }

    /** The partition, of {@code partitions}, that the author whose id is {@code key} (its decimal string) belongs to. */
    static int of(byte[] key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /** The internal topic's name for an application. */
    public static String topic(String applicationId) {
        return applicationId + "-" + NAME + "-repartition";
    }

    static Repartitioned<byte[], byte[]> repartitioned(int partitions) {
        StreamPartitioner<byte[], byte[]> byAuthor = (topic, key, value, count) -> Optional.of(Set.of(of(key, count)));
        return Repartitioned.<byte[], byte[]>as(NAME).withKeySerde(Serdes.ByteArray()).withValueSerde(Serdes.ByteArray())
                .withNumberOfPartitions(partitions).withStreamPartitioner(byAuthor);
    }
}
