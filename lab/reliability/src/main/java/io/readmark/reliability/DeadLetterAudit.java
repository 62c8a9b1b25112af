package io.readmark.reliability;

import io.readmark.reliability.BadRecords.Category;
import io.readmark.reliability.PoisonPills.Source;
import io.readmark.schemas.DeadLetterHeaders;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The dead-letter topic read from its beginning to its end, compared with the bad records sent: every one must be
 * there with its category, and nothing else. Copies are counted by source record, because under at-least-once a
 * processor that crashed before committing dead-letters the records after its last commit once more.
 *
 * @param copies        records on the dead-letter topic
 * @param deadLettered  bad records sent that have a copy with the right category
 * @param missing       bad records sent without a copy
 * @param wrongCategory bad records whose copy has another category
 * @param unexpected    source records with a copy that are not bad records sent (valid events dead-lettered)
 * @param examples      a few of the differences
 */
public record DeadLetterAudit(long copies, long deadLettered, long missing, long wrongCategory, long unexpected,
                              List<String> examples) {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(120);
    private static final int MAX_EXAMPLES = 5;

    /** True when every bad record sent was dead-lettered with its category and nothing else was. */
    public boolean exact() {
        return missing == 0 && wrongCategory == 0 && unexpected == 0;
    }

    /** Reads the whole dead-letter topic; call once the pipeline drained (every bad record was consumed and committed). */
    public static DeadLetterAudit of(Pipeline pipeline, Map<Source, Category> sent) {
        Map<Source, String> categories = new HashMap<>();
        long copies = 0;
        List<String> examples = new ArrayList<>();
        long unexpected = 0;
        String topic = pipeline.topics().deadLetters().name();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.bootstrapServers(),
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 8 * BadRecords.KAFKA_RECORD_LIMIT,
                ConsumerConfig.CLIENT_ID_CONFIG, "readmark-dead-letter-audit"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(PartitionInfo::partition).map(partition -> new TopicPartition(topic, partition)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("could not read " + topic + " to its end");
                for (ConsumerRecord<byte[], byte[]> copy : consumer.poll(Duration.ofMillis(500))) {
                    if (copy.offset() >= ends.get(new TopicPartition(copy.topic(), copy.partition()))) continue;
                    copies++;
                    Source source = source(copy);
                    if (!sent.containsKey(source)) {
                        if (!categories.containsKey(source) && examples.size() < MAX_EXAMPLES) {
                            examples.add("dead-lettered but not a bad record sent: " + source);
                        }
                        if (categories.put(source, header(copy, DeadLetterHeaders.CATEGORY)) == null) unexpected++;
                        continue;
                    }
                    categories.putIfAbsent(source, header(copy, DeadLetterHeaders.CATEGORY));
                }
            }
        }
        long deadLettered = 0;
        long missing = 0;
        long wrongCategory = 0;
        for (Map.Entry<Source, Category> bad : sent.entrySet()) {
            String category = categories.get(bad.getKey());
            if (category == null) {
                missing++;
                if (examples.size() < MAX_EXAMPLES) examples.add("not dead-lettered: " + bad.getKey());
            } else if (!category.equals(bad.getValue().label())) {
                wrongCategory++;
                if (examples.size() < MAX_EXAMPLES) {
                    examples.add("dead-lettered as " + category + " instead of " + bad.getValue().label() + ": " + bad.getKey());
                }
            } else {
                deadLettered++;
            }
        }
        return new DeadLetterAudit(copies, deadLettered, missing, wrongCategory, unexpected, List.copyOf(examples));
    }

    /** Where the copy says its original is; a copy without those headers is named by its own coordinates. */
    private static Source source(ConsumerRecord<byte[], byte[]> copy) {
        try {
            return new Source(header(copy, DeadLetterHeaders.SOURCE_TOPIC),
                    Integer.parseInt(header(copy, DeadLetterHeaders.SOURCE_PARTITION)),
                    Long.parseLong(header(copy, DeadLetterHeaders.SOURCE_OFFSET)));
        } catch (NumberFormatException e) {
            return new Source(copy.topic() + " (copy without its source)", copy.partition(), copy.offset());
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
