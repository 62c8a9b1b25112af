package io.readmark.processor;

import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.DeletedBlogs;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.processor.graph.RecentPosts;
import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.Followed;
import io.readmark.schemas.Unfollowed;
import io.readmark.store.unread.UnreadChanges;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Keeps the follower graph (with each follow's time) and counts; an unfollow also drops that author's unread for the
 * user. A follow gets exactly the posts published after it, also those processed before it ({@link RecentPosts}), and
 * the deletes of those deleted; none from before it (no backfill). A follow processed longer after its time than
 * recent posts are kept may have missed such posts: it is logged and counted, never silent.
 */
final class FollowEventHandler {

    private static final Logger log = LoggerFactory.getLogger(FollowEventHandler.class);
    /** An import of old follows would otherwise log once per follow. */
    private static final long LOG_EVERY_MS = Duration.ofMinutes(1).toMillis();

    private final FanoutSettings settings;
    private final Runnable lateFollow;
    private ProcessorContext<byte[], byte[]> context;
    private FollowerGraph graph;
    private RecentPosts recentPosts;
    private DeletedBlogs deletedBlogs;
    private long lateSinceLog;
    private long nextLogAtMs;

    /** {@code lateFollow} counts the follows processed more than the recent-post retention after their time. */
    FollowEventHandler(FanoutSettings settings, Runnable lateFollow) {
        this.settings = settings;
        this.lateFollow = lateFollow;
    }

    void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        graph = new FollowerGraph(context.getStateStore(FollowerGraph.STORE_NAME),
                context.getStateStore(FollowerGraph.COUNTS_STORE_NAME), settings.policy());
        recentPosts = new RecentPosts(context.getStateStore(RecentPosts.STORE_NAME));
        deletedBlogs = new DeletedBlogs(context.getStateStore(DeletedBlogs.STORE_NAME));
    }

    void apply(FollowEvent event, UnreadChanges writer) {
        switch (event) {
            case Followed followed -> {
                long author = followed.authorId();
                long follower = followed.followerId();
                long at = followed.at().toEpochMilli();
                FollowerGraph.FollowOutcome outcome = graph.follow(author, follower, at);
                if (outcome == FollowerGraph.FollowOutcome.STALE) return;
                // After an unfollow of the pair, Redis refuses the author's posts until it learns of this follow.
                if (outcome == FollowerGraph.FollowOutcome.FOLLOWING_AGAIN) {
                    writer.follow(follower, author, at, graph.unfollowedBefore(author, follower));
                }
                warnIfLate(followed, at);
                deliverRecentPosts(author, follower, at, writer);
            }
            case Unfollowed unfollowed -> {
                long author = unfollowed.authorId();
                long follower = unfollowed.followerId();
                long at = unfollowed.at().toEpochMilli();
                FollowerGraph.UnfollowOutcome outcome = graph.unfollow(author, follower, at);
                switch (outcome.kind()) {
                    case STALE -> { }
                    case UNFOLLOWED -> writer.unfollow(follower, author, at);
                    // A later follow of the pair was processed before this unfollow: what was delivered since that
                    // follow stays, what came before it goes; and the recent posts since it are sent again, for what
                    // Redis refused under another order's unfollow (a rebuild stopped midway, a crash).
                    case FOLLOWED_AGAIN -> {
                        writer.unfollowBefore(follower, author, at, outcome.followedAgainAtMillis());
                        deliverRecentPosts(author, follower, outcome.followedAgainAtMillis(), writer);
                    }
                }
            }
        }
    }

    /**
     * Posts published after a follow but fanned out before it was processed; every time, also on a replay, as their
     * deliveries may not have reached Redis before a crash (deliveries are idempotent). A deleted one gets its delete
     * instead: a run that processed this follow before the delete may have delivered it (a rebuild stopped midway),
     * and this run's delete did not reach the follower.
     */
    private void deliverRecentPosts(long author, long follower, long followedAtMillis, UnreadChanges writer) {
        if (follower == author) return;
        recentPosts.forEachPublishedAfter(author, followedAtMillis, (blog, publishedAt) -> {
            long deletedAt = deletedBlogs.deletedAt(author, blog);
            if (deletedAt == DeletedBlogs.NOT_DELETED) {
                writer.deliver(follower, author, blog, publishedAt);
            } else {
                writer.delete(follower, author, blog, deletedAt);
            }
        });
    }

    /**
     * Posts of the author processed before this follow and older than the retention are no longer known. Counted
     * every time, logged at most once a minute with the count since the last line.
     */
    private void warnIfLate(Followed followed, long at) {
        long now = context.currentSystemTimeMs();
        Duration behind = Duration.ofMillis(now - at);
        if (behind.compareTo(settings.recentPostRetention()) <= 0) return;
        lateFollow.run();
        lateSinceLog++;
        if (now < nextLogAtMs) return;
        log.atWarn().addKeyValue("author", followed.authorId()).addKeyValue("follower", followed.followerId())
                .addKeyValue("behindSeconds", behind.toSeconds()).addKeyValue("lateFollows", lateSinceLog)
                .log("{} follow(s) processed more than PROCESSOR_RECENT_POST_RETENTION ({}) after their time, this one {} "
                        + "after: posts published after such a follow but processed before it are not delivered to the follower",
                        lateSinceLog, settings.recentPostRetention(), behind);
        lateSinceLog = 0;
        nextLogAtMs = now + LOG_EVERY_MS;
    }
}
