package io.readmark.processor;

import io.readmark.processor.commit.ThreadChanges;
import io.readmark.processor.deadletters.DeadLetterCategory;
import io.readmark.processor.deadletters.RejectedRecords;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.processor.graph.FollowerKeyUpgrade;
import io.readmark.schemas.BlogEvent;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.InvalidEventException;
import io.readmark.store.unread.UnreadChanges;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The second hop: an author's follows and posts, re-partitioned by author, applied in the task that holds the
 * author's follower graph. A record on a partition that is not its author's (only something other than the first hop
 * can put it there) is dead-lettered rather than applied against the wrong graph, where its followers would be
 * silently missing.
 */
final class AuthorEventProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    private final EventDecoder<Event> decoder;
    private final RejectedRecords badRecords;
    private final ThreadChanges writers;
    private final int partitions;
    private final FollowEventHandler follows;
    private final BlogEventHandler blogs;
    private ProcessorContext<byte[], byte[]> context;

    AuthorEventProcessor(ThreadChanges writers, EventTimeLimit eventTimes, RejectedRecords badRecords, int partitions,
                         FollowEventHandler follows, BlogEventHandler blogs) {
        this.decoder = EventDecoder.either(FollowEvent.class, BlogEvent.class, eventTimes, badRecords);
        this.badRecords = badRecords;
        this.writers = writers;
        this.partitions = partitions;
        this.follows = follows;
        this.blogs = blogs;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        // Before the scheduler resumes a walk or a record changes a pair: both expect the current keys.
        FollowerKeyUpgrade.run(context.getStateStore(FollowerGraph.STORE_NAME));
        follows.init(context);
        blogs.init(context);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Event event = decoder.decode(context, record);
        if (event == null) return;
        int partition = context.recordMetadata().orElseThrow().partition();
        int expected = AuthorPartitions.of(record.key(), partitions);
        if (partition != expected) {
            badRecords.reject(context, record, DeadLetterCategory.PARTITION, new InvalidEventException("key",
                    "author " + event.recordKey() + " belongs on internal partition " + expected + ", not " + partition));
            return;
        }
        UnreadChanges writer = writers.current();
        switch (event) {
            case FollowEvent follow -> follows.apply(follow, writer);
            case BlogEvent blog -> blogs.apply(blog, writer);
            default -> throw new IllegalStateException("the decoder accepts follow and blog events only");
        }
        // Send now for low latency; acknowledgement is awaited before the offsets are committed.
        writer.flush();
    }

    @Override
    public void close() {
        blogs.close();
    }
}
