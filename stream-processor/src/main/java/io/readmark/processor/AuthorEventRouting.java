package io.readmark.processor;

import io.readmark.schemas.Event;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The first hop of follow and blog events: checks each record against the contract (bad ones are dead-lettered here,
 * with their coordinates on the input topic) and passes the valid ones on, unchanged, to be re-partitioned by author.
 * Whatever partition the producer chose, the record's key is then the author id, so the next hop finds the author's
 * follower graph.
 */
final class AuthorEventRouting implements Processor<byte[], byte[], byte[], byte[]> {

    private final EventDecoder<? extends Event> decoder;
    private final String next;
    private ProcessorContext<byte[], byte[]> context;

    /** Passes the events {@code decoder} accepts to the child node {@code next}. */
    AuthorEventRouting(EventDecoder<? extends Event> decoder, String next) {
        this.decoder = decoder;
        this.next = next;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        if (decoder.decode(context, record) != null) context.forward(record, next);
    }
}
