package io.readmark.reliability;

import org.junit.jupiter.api.Test;

import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mixed workload as a platform with several Kafka clients produces it: follows partitioned the librdkafka way
 * (CRC32) or, for a third of the followers, at random, posts the Java client's way (murmur2) or at random, deletes and reads the Sarama way (FNV-1a), on event
 * topics of 5, 3 and 7 partitions and an internal author topic of 4. Every follower must end with exactly the posts
 * the model says.
 */
class MixedPartitionersIT {

    @Test
    void shouldDeliverExactlyWhateverPartitionsTheProducersChose() {
        try (Harness harness = Scenario.onSharedInfrastructure("partitioners")) {
            Pipeline pipeline = harness.pipeline();
            assertThat(pipeline.followPartitions()).isEqualTo(5);
            assertThat(pipeline.partitions()).isEqualTo(3);
            assertThat(pipeline.readPartitions()).isEqualTo(7);
            assertThat(authorsWhoseFollowsAndPostsShareAPartitionNumber(pipeline)).as("of 100 authors").isLessThan(50);

            harness.startProcessor("processor");
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 2_500);
            Scenario.stopDrainAndCheck(harness, workload);
        }
    }

    /** Without the processor's own co-partitioning, these would be the only authors whose followers get their posts. */
    private static long authorsWhoseFollowsAndPostsShareAPartitionNumber(Pipeline pipeline) {
        return LongStream.rangeClosed(1, 100).filter(author -> {
            String key = Long.toString(author);
            return ClientPartitioner.LIBRDKAFKA_CRC32.partitionOf(key, pipeline.followPartitions())
                    == ClientPartitioner.JAVA_MURMUR2.partitionOf(key, pipeline.partitions());
        }).count();
    }
}
