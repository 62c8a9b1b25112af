package io.readmark.processor.deadletters;

import io.readmark.common.logging.LogText;
import io.readmark.schemas.InvalidEventException;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A rebuild's handling of bad records: count them by topic and reason, keep the first few as examples, log each, and
 * go on. Not the dead-letter topic: the live processor dead-lettered every one of them when it first read them, and a
 * second copy per rebuild would make operators look at the same record twice.
 */
public final class SkippedRecords implements RejectedRecords, RejectedRecords.Route {

    private static final Logger log = LoggerFactory.getLogger(SkippedRecords.class);
    private static final int MAX_EXAMPLES = 5;

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final List<String> examples = new ArrayList<>();

    @Override
    public RejectedRecords forBranch(String branch) {
        return this;
    }

    @Override
    public void addSink(KStream<byte[], byte[]> branchOutput, String branch) {
        // nothing leaves the rebuild
    }

    @Override
    public void reject(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> record, DeadLetterCategory category,
                       InvalidEventException reason) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        counts.computeIfAbsent(source.topic() + " " + category.label(), key -> new LongAdder()).increment();
        String where = source.topic() + "-" + source.partition() + "@" + source.offset();
        synchronized (examples) {
            if (examples.size() < MAX_EXAMPLES) examples.add(where + ": " + LogText.of(reason.getMessage()));
        }
        log.atInfo().addKeyValue("topic", source.topic()).addKeyValue("partition", source.partition())
                .addKeyValue("offset", source.offset()).log("rebuild skipped a bad record: {}", LogText.of(reason.getMessage()));
    }

    /** {@code "<topic> <reason>"} → records, sorted. */
    public Map<String, Long> counts() {
        Map<String, Long> snapshot = new TreeMap<>();
        counts.forEach((key, count) -> snapshot.put(key, count.sum()));
        return snapshot;
    }

    public List<String> examples() {
        synchronized (examples) {
            return List.copyOf(examples);
        }
    }
}
