package io.readmark.reliability;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientPartitionerTest {

    @Test
    void randomDrawsRepeatWithTheSeedAndCoverEveryPartition() {
        int[] first = draws(42), again = draws(42), other = draws(43);

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        assertThat(IntStream.of(first).distinct().sorted().toArray()).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void hashingPartitionersIgnoreTheDrawsAndRandomHasNoPartitionForAKey() {
        SplittableRandom random = new SplittableRandom(1);
        for (ClientPartitioner partitioner : new ClientPartitioner[]{ClientPartitioner.JAVA_MURMUR2,
                ClientPartitioner.LIBRDKAFKA_CRC32, ClientPartitioner.SARAMA_FNV1A}) {
            assertThat(partitioner.partitionOf("12345", 6, random)).isEqualTo(partitioner.partitionOf("12345", 6));
        }
        assertThatThrownBy(() -> ClientPartitioner.RANDOM.partitionOf("12345", 6)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int[] draws(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return IntStream.range(0, 200).map(i -> ClientPartitioner.RANDOM.partitionOf("7", 6, random)).toArray();
    }
}
