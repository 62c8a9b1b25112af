package io.readmark.processor;

import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Unfollowed;
import io.readmark.store.UnreadWriter;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Keeps the follower graph (with each follow's time) and counts; an unfollow also drops that author's unread for the
 * user. A follow gets exactly the posts published after it, also those processed before it ({@link RecentPosts});
 * none from before it (no backfill).
 */
final class FollowEventProcessor extends EventProcessor<FollowEvent> {

    private final BigVPolicy policy;
    private FollowerGraph graph;
    private RecentPosts recentPosts;
    private DeletedBlogs deletedBlogs;

    FollowEventProcessor(ThreadWriters writers, RejectedRecords badRecords, BigVPolicy policy) {
        super(FollowEvent.class, writers, badRecords);
        this.policy = policy;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        super.init(context);
        graph = new FollowerGraph(context.getStateStore(FollowerGraph.STORE_NAME),
                context.getStateStore(FollowerGraph.COUNTS_STORE_NAME), policy);
        recentPosts = new RecentPosts(context.getStateStore(RecentPosts.STORE_NAME));
        deletedBlogs = new DeletedBlogs(context.getStateStore(DeletedBlogs.STORE_NAME));
    }

    @Override
    void apply(FollowEvent event, UnreadWriter writer) {
        switch (event) {
            case Followed followed -> {
                long author = followed.authorId();
                long follower = followed.followerId();
                long at = followed.at().toEpochMilli();
                graph.follow(author, follower, at);
                // Posts published after the follow but fanned out before it was processed; every time, also on a
                // replay, as their deliveries may not have reached Redis before a crash (deliveries are idempotent).
                if (follower != author) {
                    recentPosts.forEachPublishedAfter(author, at, (blog, publishedAt) -> {
                        if (!deletedBlogs.isDeleted(author, blog)) writer.deliver(follower, author, blog, publishedAt);
                    });
                }
            }
            case Unfollowed unfollowed -> {
                graph.unfollow(unfollowed.authorId(), unfollowed.followerId());
                writer.unfollow(unfollowed.followerId(), unfollowed.authorId(), unfollowed.at().toEpochMilli());
            }
        }
    }
}
