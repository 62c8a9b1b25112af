package io.readmark.processor;

import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.InvalidEventException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/** Turns a rejected record into its dead-letter copy: same key and value, plus why and where it came from. */
final class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    /** Each processor has its own sink node: one shared sink would merge unrelated sub-topologies into one. */
    static String sinkFor(String processorName) {
        return processorName + "-dead-letters";
    }

    private DeadLetters() {
    }

    /** Forwards the dead-letter copy of the record being processed to {@code sink}, and logs why. */
    static void send(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> rejected, String sink,
                     InvalidEventException reason) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        log.warn("dead-lettering {}-{}@{}: {}", source.topic(), source.partition(), source.offset(), reason.getMessage());
        context.forward(of(rejected, source, reason.field(), reason.getMessage()), sink);
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
