package io.readmark.processor;

import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Unfollowed;
import io.readmark.store.UnreadWriter;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/** Keeps the follower graph; an unfollow also drops that author's unread for the user. Follows do not backfill. */
final class FollowEventProcessor extends EventProcessor<FollowEvent> {

    private FollowerGraph graph;

    FollowEventProcessor(ThreadWriters writers, String deadLetterSink) {
        super(FollowEvent.class, writers, deadLetterSink);
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        super.init(context);
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(FollowerGraph.STORE_NAME);
        graph = new FollowerGraph(store);
    }

    @Override
    void apply(FollowEvent event, UnreadWriter writer) {
        switch (event) {
            case Followed followed -> graph.follow(followed.authorId(), followed.followerId());
            case Unfollowed unfollowed -> {
                graph.unfollow(unfollowed.authorId(), unfollowed.followerId());
                writer.unfollow(unfollowed.followerId(), unfollowed.authorId());
            }
        }
    }
}
