package io.readmark.processor.deadletters;

import io.readmark.schemas.InvalidEventException;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** What a branch of a topology does with a record that breaks the contract: dead-letter it, or count and skip it. */
public interface RejectedRecords {

    /** Handles the record being processed, which {@code reason} says is bad, in the words of {@code category}. */
    void reject(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> record, DeadLetterCategory category,
                InvalidEventException reason);

    /** As above, with the category the reason implies. */
    default void reject(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> record, InvalidEventException reason) {
        reject(context, record, DeadLetterCategory.of(reason), reason);
    }

    /**
     * How a whole topology handles bad records: a handler per branch, and the sink node that handler forwards to, if
     * any (a child of the branch's processor).
     */
    interface Route {

        RejectedRecords forBranch(String branch);

        void addSink(KStream<byte[], byte[]> branchOutput, String branch);
    }
}
