package io.readmark.processor;

import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.InvalidEventException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * One processor's way to the dead-letter topic: forwards a rejected record's copy (same key and value, plus why and
 * where it came from) to the processor's own sink, logs it and counts it.
 */
final class DeadLetters implements BadRecords {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private final String sink;
    private final ProcessorMeters meters;

    DeadLetters(String processorName, ProcessorMeters meters) {
        this.sink = sinkFor(processorName);
        this.meters = meters;
    }

    /** Each processor has its own sink node: one shared sink would merge unrelated sub-topologies into one. */
    static String sinkFor(String processorName) {
        return processorName + "-dead-letters";
    }

    /** Every branch dead-letters to {@code topic} through a sink of its own: what the live applications do. */
    static BadRecords.Route route(String topic, ProcessorMeters meters) {
        return new BadRecords.Route() {
            @Override
            public BadRecords forBranch(String branch) {
                return new DeadLetters(branch, meters);
            }

            @Override
            public void addSink(Topology topology, String branch) {
                topology.addSink(sinkFor(branch), topic, new ByteArraySerializer(), new ByteArraySerializer(), branch);
            }
        };
    }

    /** Forwards the dead-letter copy of the record being processed, and logs and counts why. */
    @Override
    public void reject(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> rejected, InvalidEventException reason) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        String category = category(reason);
        log.atWarn().addKeyValue("topic", source.topic()).addKeyValue("partition", source.partition())
                .addKeyValue("offset", source.offset()).addKeyValue("reason", category)
                .log("dead-lettering: {}", reason.getMessage());
        context.forward(of(rejected, source, reason.field(), reason.getMessage()), sink);
        meters.deadLettered(source.topic(), category);
    }

    /**
     * Why, in a word a metric can carry (the message quotes the bad values): {@code malformed} (not a JSON object),
     * {@code type} (unknown or foreign event type), {@code key} (not the event's key id) or {@code field}.
     */
    static String category(InvalidEventException reason) {
        if (reason.field() == null) return "malformed";
        return switch (reason.field()) {
            case "type", "key" -> reason.field();
            default -> "field";
        };
    }

    static Record<byte[], byte[]> of(Record<byte[], byte[]> rejected, RecordMetadata source, String field, String reason) {
        Record<byte[], byte[]> copy = rejected.withHeaders(rejected.headers());
        Headers headers = copy.headers();
        put(headers, DeadLetterHeaders.REASON, reason);
        if (field != null) put(headers, DeadLetterHeaders.FIELD, field);
        put(headers, DeadLetterHeaders.SOURCE_TOPIC, source.topic());
        put(headers, DeadLetterHeaders.SOURCE_PARTITION, Integer.toString(source.partition()));
        put(headers, DeadLetterHeaders.SOURCE_OFFSET, Long.toString(source.offset()));
        return copy;
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
