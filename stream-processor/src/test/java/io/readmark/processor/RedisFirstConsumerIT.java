package io.readmark.processor;

import io.readmark.infra.Infrastructure;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import io.readmark.store.UnreadLimits;
import io.readmark.store.UnreadReader;
import io.readmark.store.UnreadWriter;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The processor's consumer commits an offset only after Redis acknowledged every write of the committing thread. */
class RedisFirstConsumerIT {

    @Test
    void shouldAwaitRedisBeforeCommittingOffsets() {
        // Given writes submitted but not yet acknowledged on this thread
        Infrastructure infra = TestInfrastructure.shared();
        String topic = "commit-order-" + UUID.randomUUID();
        KafkaTopics.createTopics(infra.kafkaBootstrapServers(), Map.of(topic, 1));
        UnreadKeys keys = new UnreadKeys("commit-" + UUID.randomUUID());
        try (RedisConnections redis = RedisConnections.connect(infra.redisUrl(), Duration.ofSeconds(5), false);
             ThreadWriters writers = new ThreadWriters(redis, keys, new UnreadLimits(5000, 100), 100_000, applied -> { });
             RedisFirstConsumer consumer = new RedisFirstConsumer(Map.of(
                     ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrapServers(),
                     ConsumerConfig.GROUP_ID_CONFIG, "commit-order-" + UUID.randomUUID()), writers, new ThreadCommits())) {
            UnreadWriter writer = writers.current();
            for (long blogId = 1; blogId <= 2_000; blogId++) writer.deliver(42, 7, blogId, 1_767_225_600_000L + blogId);
            assertThat(writer.pendingCount()).isEqualTo(2_000);

            // When the offsets are committed
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(0)));

            // Then every write was acknowledged first
            assertThat(writer.pendingCount()).isZero();
            assertThat(new UnreadReader(redis.shared(), keys).counts(42).total()).isEqualTo(2_000);
        }
    }
}
