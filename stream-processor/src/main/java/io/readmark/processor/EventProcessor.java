package io.readmark.processor;

import io.readmark.schemas.Event;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import io.readmark.store.UnreadWriter;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.nio.charset.StandardCharsets;

/**
 * Decodes one topic's raw records into events of the type that belongs there and hands each to {@link #apply}.
 * Anything else (not JSON, larger than {@link Topics#MAX_EVENT_BYTES}, a bad field, a foreign event type, a key that is
 * not the event's key id) goes to the dead-letter topic with the reason (in a rebuild: is counted and skipped); the
 * stream keeps going.
 */
abstract class EventProcessor<E extends Event> implements Processor<byte[], byte[], byte[], byte[]> {

    private final Class<E> eventType;
    private final ThreadWriters writers;
    private final RejectedRecords badRecords;
    private ProcessorContext<byte[], byte[]> context;

    EventProcessor(Class<E> eventType, ThreadWriters writers, RejectedRecords badRecords) {
        this.eventType = eventType;
        this.writers = writers;
        this.badRecords = badRecords;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
    }

    @Override
    public final void process(Record<byte[], byte[]> record) {
        if (record.value() != null && record.value().length > Topics.MAX_EVENT_BYTES) {
            badRecords.reject(context, record, DeadLetterCategory.OVERSIZE, new InvalidEventException(null, "record value of "
                    + record.value().length + " bytes is larger than the " + Topics.MAX_EVENT_BYTES + " bytes an event may have"));
            return;
        }
        E event;
        try {
            event = decode(record);
        } catch (InvalidEventException e) {
            badRecords.reject(context, record, e);
            return;
        }
        UnreadWriter writer = writers.current();
        apply(event, writer);
        // Send now for low latency; acknowledgement is awaited before the offsets are committed.
        writer.flush();
    }

    abstract void apply(E event, UnreadWriter writer);

    private E decode(Record<byte[], byte[]> record) {
        Event event = Topics.EVENT_SERDE.decode(record.value());
        if (!eventType.isInstance(event)) {
            throw new InvalidEventException("type", "event type " + event.typeName() + " does not belong on this topic");
        }
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        String expected = Topics.keyOf(event);
        if (!expected.equals(key)) {
            throw new InvalidEventException("key", "record key must be " + expected + " (the event's key id), was "
                    + (key == null ? "null" : "'" + key + "'"));
        }
        return eventType.cast(event);
    }
}
