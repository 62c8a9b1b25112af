package io.readmark.reliability;

import io.readmark.reliability.BadRecords.BadRecord;
import io.readmark.reliability.BadRecords.Category;
import io.readmark.reliability.BadRecords.Kind;
import io.readmark.reliability.BadRecords.Target;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Sends a burst of bad records ({@link BadRecords}) to every topic the processors read, the fan-out chunk topic
 * included, while the valid workload flows. Each burst has one record of every kind on every topic (the kinds of
 * about 1 MB only once per run) and random ones up to its size. It remembers where Kafka stored each record and
 * with which category it must be dead-lettered, so that the dead-letter topic can be audited at the end
 * ({@link DeadLetterAudit}).
 */
public final class PoisonPills implements Fault {

    /** Where a record is stored: a dead-letter copy names it in its headers. */
    public record Source(String topic, int partition, long offset) {
    }

    /** Far longer than any broker outage the soak causes: a burst waits for the broker instead of failing. */
    private static final Duration DELIVERY_TIMEOUT = Duration.ofMinutes(5);

    private final int burst;
    private final Map<Source, Category> sent = new HashMap<>();
    private boolean largeSent;

    /** @param burst bad records per injection */
    public PoisonPills(int burst) {
        if (burst < 1) throw new IllegalArgumentException("a burst needs at least one record, was " + burst);
        this.burst = burst;
    }

    @Override
    public String name() {
        return "poison-pills";
    }

    /** Returns once Kafka stored every record of the burst. */
    @Override
    public synchronized void inject(Harness harness, Random random) throws Exception {
        List<BadRecord> records = burst(new BadRecords(random.nextLong()), random);
        Pipeline pipeline = harness.pipeline();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) DELIVERY_TIMEOUT.toMillis(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG, DELIVERY_TIMEOUT.toMillis(),
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, BadRecords.KAFKA_RECORD_LIMIT,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.CLIENT_ID_CONFIG, "readmark-poison-pills"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
            for (BadRecord record : records) {
                acks.add(producer.send(new ProducerRecord<>(record.target().topic(pipeline.topics()), record.key(), record.value())));
            }
            producer.flush();
            for (int i = 0; i < records.size(); i++) {
                RecordMetadata stored;
                try {
                    stored = acks.get(i).get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("Kafka did not store the bad record " + records.get(i), e.getCause());
                }
                sent.put(new Source(stored.topic(), stored.partition(), stored.offset()), records.get(i).category());
            }
        }
    }

    /** Every small kind on every topic (the large ones once per run), shuffled, then random ones up to the burst size. */
    private List<BadRecord> burst(BadRecords catalogue, Random random) {
        List<BadRecord> records = new ArrayList<>();
        for (Target target : Target.values()) {
            for (Kind kind : BadRecords.kinds(target)) {
                if (!kind.large() || !largeSent) records.add(catalogue.next(target, kind));
            }
        }
        Target[] targets = Target.values();
        while (records.size() < burst) records.add(catalogue.next(targets[random.nextInt(targets.length)]));
        Collections.shuffle(records, random);
        List<BadRecord> cut = List.copyOf(records.subList(0, burst));
        largeSent |= cut.stream().anyMatch(record -> record.kind().large());
        return cut;
    }

    /** Bad records Kafka stored so far. */
    public synchronized long sent() {
        return sent.size();
    }

    /** Where each bad record is stored, and the category its dead-letter copy must have. */
    public synchronized Map<Source, Category> sentBySource() {
        return Map.copyOf(sent);
    }
}
