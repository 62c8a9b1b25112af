package io.readmark.reliability;

import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.store.redis.RedisConnections;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Redis lost everything, and a first rebuild stops partway, leaving the writes of the events it had processed in its
 * own order; the rebuild after it processes every event in another order and must still bring back exactly the state
 * the model has, also for a post the first delivered to a follower before the delete reached them, whose delete the
 * second processed before that follow (the events of one author sit on several partitions).
 */
class InterruptedRebuildIT {

    /** Where the first rebuild stops, given the records it reports applied, its total and pass, and the follow and blog records. */
    @FunctionalInterface
    private interface StopAt {
        boolean reached(long applied, long total, String pass, long authorRecords);
    }

    private static final Map<String, StopAt> STOPS = new LinkedHashMap<>();

    static {
        STOPS.put("an eighth into the follows and posts", (applied, total, pass, authors) -> 8 * applied > authors);
        STOPS.put("three quarters into the follows and posts", (applied, total, pass, authors) -> 4 * applied > 3 * authors);
        STOPS.put("as the reads begin", (applied, total, pass, authors) -> pass.equals(Rebuild.READ_PASS));
    }

    @Test
    void shouldBeExactAfterARebuildThatStoppedPartway(@TempDir Path stateDir) throws Exception {
        try (Harness harness = Scenario.onSharedInfrastructure("interrupted-rebuild")) {
            harness.startProcessor("processor");
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 6_000);
            Scenario.stopDrainAndCheck(harness, workload);
            ProcessorConfig config = harness.processorConfig(stateDir);
            long authorRecords = records(config, config.topics().followEvents().name(), config.topics().blogEvents().name());

            Instant stamp = Instant.now();
            for (Map.Entry<String, StopAt> stop : STOPS.entrySet()) {
                try (RedisConnections redis = RedisConnections.connect(config.redis(), config.redisTimeout(), false)) {
                    redis.shared().sync().flushall();
                }
                Rebuild stopped = new Rebuild(config, stamp);
                long[] stoppedAt = {-1};
                assertThatThrownBy(() -> stopped.run((applied, total, pass) -> {
                    if (stoppedAt[0] < 0 && stop.getValue().reached(applied, total, pass, authorRecords)) {
                        stoppedAt[0] = applied;
                        stopped.cancel();
                    }
                })).as("stopped %s", stop.getKey()).isInstanceOf(Rebuild.CancelledException.class);
                new Rebuild(config, stamp.plusMillis(1)).run((applied, total, pass) -> { });
                stamp = stamp.plusMillis(2);

                CheckResult check = harness.check();
                assertThat(check.exact()).as("a rebuild stopped %s (%d records applied, %d of them follows and posts), then a "
                        + "complete one: %s", stop.getKey(), stoppedAt[0], authorRecords, check).isTrue();
            }
        }
    }

    /** The records the topics hold. */
    private static long records(ProcessorConfig config, String... topics) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                config.bootstrapServers()), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = Stream.of(topics).flatMap(topic -> consumer.partitionsFor(topic).stream())
                    .map(partition -> new TopicPartition(partition.topic(), partition.partition())).toList();
            Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(partitions);
            return consumer.endOffsets(partitions).entrySet().stream()
                    .mapToLong(end -> end.getValue() - beginnings.get(end.getKey())).sum();
        }
    }
}
