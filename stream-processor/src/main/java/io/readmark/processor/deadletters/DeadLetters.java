package io.readmark.processor.deadletters;

import io.readmark.common.logging.LogText;
import io.readmark.schemas.InvalidEventException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.BiConsumer;

/**
 * One processor's way to the dead-letter topic: forwards a rejected record's {@link DeadLetterCopy} to the processor's
 * own sink, logs it and counts it. It knows nothing of the topology it serves: the count goes to whoever keeps the
 * metrics.
 */
public final class DeadLetters implements RejectedRecords {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private final String sink;
    private final BiConsumer<String, String> deadLettered;

    DeadLetters(String processorName, BiConsumer<String, String> deadLettered) {
        this.sink = sinkFor(processorName);
        this.deadLettered = deadLettered;
    }

    /** Each processor has its own sink node: one shared sink would merge unrelated sub-topologies into one. */
    static String sinkFor(String processorName) {
        return processorName + "-dead-letters";
    }

    /**
     * Every branch dead-letters to {@code topic} through a sink of its own: what the live applications do.
     *
     * @param deadLettered told the source topic and the category's label of every record dead-lettered
     */
    public static RejectedRecords.Route route(String topic, BiConsumer<String, String> deadLettered) {
        return new RejectedRecords.Route() {
            @Override
            public RejectedRecords forBranch(String branch) {
                return new DeadLetters(branch, deadLettered);
            }

            @Override
            public void addSink(KStream<byte[], byte[]> branchOutput, String branch) {
                branchOutput.to(topic, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(sinkFor(branch)));
            }
        };
    }

    /** Forwards the dead-letter copy of the record being processed, and logs and counts why. */
    @Override
    public void reject(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> rejected, DeadLetterCategory category,
                       InvalidEventException reason) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        log.atWarn().addKeyValue("topic", source.topic()).addKeyValue("partition", source.partition())
                .addKeyValue("offset", source.offset()).addKeyValue("reason", category.label())
                .log("dead-lettering: {}", LogText.of(reason.getMessage()));
        context.forward(DeadLetterCopy.of(rejected, source, category, reason.field(), reason.getMessage()), sink);
        deadLettered.accept(source.topic(), category.label());
    }
}
