package io.readmark.processor;

import io.readmark.processor.commit.ThreadChanges;
import io.readmark.schemas.Event;
import io.readmark.store.unread.UnreadChanges;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Applies the events of one topic to Redis: decodes each record ({@link EventDecoder}, bad ones are dead-lettered and
 * the stream keeps going) and hands the event to {@link #apply} with the stream thread's writer.
 */
abstract class EventProcessor<E extends Event> implements Processor<byte[], byte[], byte[], byte[]> {

    private final EventDecoder<E> decoder;
    private final ThreadChanges writers;
    private ProcessorContext<byte[], byte[]> context;

    EventProcessor(EventDecoder<E> decoder, ThreadChanges writers) {
        this.decoder = decoder;
        this.writers = writers;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
    }

    @Override
    public final void process(Record<byte[], byte[]> record) {
        E event = decoder.decode(context, record);
        if (event == null) return;
        UnreadChanges writer = writers.current();
        apply(event, writer);
        // Send now for low latency; acknowledgement is awaited before the offsets are committed.
        writer.flush();
    }

    /** The context of the task, for processors that forward records. */
    ProcessorContext<byte[], byte[]> context() {
        return context;
    }

    /** Applies an event of a type the decoder accepts. */
    abstract void apply(E event, UnreadChanges writer);
}
