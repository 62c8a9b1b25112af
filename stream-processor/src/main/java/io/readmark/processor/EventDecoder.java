package io.readmark.processor;

import io.readmark.processor.deadletters.DeadLetterCategory;
import io.readmark.processor.deadletters.RejectedRecords;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * Turns one topic's raw records into events of the types that belong there. Anything else (not JSON, larger than
 * {@link Topics#MAX_EVENT_BYTES}, a bad field, a foreign event type, a key that is not the event's key id, an event dated
 * past its record's timestamp by more than the {@link EventTimeLimit}) is handed to the branch's {@link RejectedRecords},
 * never thrown: an exception would kill the stream thread, and its replacement would read the same record again. A
 * rebuild decodes with this class too, so a record refused live is refused on replay.
 */
final class EventDecoder<E extends Event> {

    private final Class<E> type;
    private final List<Class<? extends E>> accepted;
    private final EventTimeLimit eventTimes;
    private final RejectedRecords badRecords;

    private EventDecoder(Class<E> type, List<Class<? extends E>> accepted, EventTimeLimit eventTimes, RejectedRecords badRecords) {
        this.type = type;
        this.accepted = accepted;
        this.eventTimes = eventTimes;
        this.badRecords = badRecords;
    }

    /** Accepts the events of one type (of a sealed family, such as {@code ReadEvent}). */
    static <E extends Event> EventDecoder<E> of(Class<E> type, EventTimeLimit eventTimes, RejectedRecords badRecords) {
        return new EventDecoder<>(type, List.of(type), eventTimes, badRecords);
    }

    /** Accepts the events of either type, as {@link Event}. */
    static EventDecoder<Event> either(Class<? extends Event> one, Class<? extends Event> other, EventTimeLimit eventTimes,
                                      RejectedRecords badRecords) {
        return new EventDecoder<>(Event.class, List.of(one, other), eventTimes, badRecords);
    }

    /** The record's event, or null once the record has been rejected. */
    E decode(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> record) {
        if (record.value() != null && record.value().length > Topics.MAX_EVENT_BYTES) {
            badRecords.reject(context, record, DeadLetterCategory.OVERSIZE, new InvalidEventException(null, "record value of "
                    + record.value().length + " bytes is larger than the " + Topics.MAX_EVENT_BYTES + " bytes an event may have"));
            return null;
        }
        try {
            return checked(record);
        } catch (InvalidEventException e) {
            badRecords.reject(context, record, e);
            return null;
        }
    }

    private E checked(Record<byte[], byte[]> record) {
        Event event = Topics.EVENT_SERDE.decode(record.value());
        if (accepted.stream().noneMatch(type -> type.isInstance(event))) {
            throw new InvalidEventException("type", "event type " + event.typeName() + " does not belong on this topic");
        }
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        String expected = Topics.keyOf(event);
        if (!expected.equals(key)) {
            throw new InvalidEventException("key", "record key must be " + expected + " (the event's key id), was "
                    + (key == null ? "null" : "'" + key + "'"));
        }
        // The record's timestamp, not this machine's clock: a replay months later must decide as the live run did.
        eventTimes.check(event, Instant.ofEpochMilli(record.timestamp()));
        return type.cast(event);
    }
}
