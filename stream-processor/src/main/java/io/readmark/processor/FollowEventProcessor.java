package io.readmark.processor;

import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Unfollowed;
import io.readmark.store.UnreadWriter;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Keeps the follower graph (with each follow's time) and counts; an unfollow also drops that author's unread for the
 * user. Follows do not backfill: only posts published after the follow reach the follower.
 */
final class FollowEventProcessor extends EventProcessor<FollowEvent> {

    private final BigVPolicy policy;
    private FollowerGraph graph;

    FollowEventProcessor(ThreadWriters writers, DeadLetters deadLetters, BigVPolicy policy) {
        super(FollowEvent.class, writers, deadLetters);
        this.policy = policy;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        super.init(context);
        graph = new FollowerGraph(context.getStateStore(FollowerGraph.STORE_NAME),
                context.getStateStore(FollowerGraph.COUNTS_STORE_NAME), policy);
    }

    @Override
    void apply(FollowEvent event, UnreadWriter writer) {
        switch (event) {
            case Followed followed -> graph.follow(followed.authorId(), followed.followerId(), followed.at().toEpochMilli());
            case Unfollowed unfollowed -> {
                graph.unfollow(unfollowed.authorId(), unfollowed.followerId());
                writer.unfollow(unfollowed.followerId(), unfollowed.authorId(), unfollowed.at().toEpochMilli());
            }
        }
    }
}
