package io.readmark.processor;

import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.fanout.FanoutBacklog;
import io.readmark.processor.fanout.FanoutJob;
import io.readmark.processor.fanout.FanoutJobs;
import io.readmark.processor.fanout.FanoutMetrics;
import io.readmark.processor.fanout.FanoutScheduler;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.DeletedBlogs;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.processor.graph.RecentPosts;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogEvent;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.FanoutChunk;
import io.readmark.schemas.Topics;
import io.readmark.store.unread.UnreadChanges;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Fans a publish or a delete out to every current follower of the author (never to the author): inline for normal
 * authors, as chunks on the fan-out topic for big-V authors. A publish whose delete was processed first delivers to
 * nobody and sends the delete to those who followed before it; a delete cancels the blog's running big-V delivery.
 */
final class BlogEventHandler {

    private static final Logger log = LoggerFactory.getLogger(BlogEventHandler.class);
    private static final Duration TOMBSTONE_SWEEP = Duration.ofHours(1);

    private final FanoutSettings settings;
    private final ThreadCommits commits;
    private final FanoutBacklog backlog;
    private final String fanoutSink;
    private ProcessorContext<byte[], byte[]> context;
    private FollowerGraph graph;
    private DeletedBlogs deletedBlogs;
    private RecentPosts recentPosts;
    private FanoutScheduler scheduler;
    private long chunkSequence;

    /** Big-V chunks go to the child node {@code fanoutSink}. */
    BlogEventHandler(String fanoutSink, FanoutSettings settings, ThreadCommits commits, FanoutBacklog backlog) {
        this.fanoutSink = fanoutSink;
        this.settings = settings;
        this.commits = commits;
        this.backlog = backlog;
    }

    void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        graph = new FollowerGraph(context.getStateStore(FollowerGraph.STORE_NAME),
                context.getStateStore(FollowerGraph.COUNTS_STORE_NAME), settings.policy());
        deletedBlogs = new DeletedBlogs(context.getStateStore(DeletedBlogs.STORE_NAME));
        recentPosts = new RecentPosts(context.getStateStore(RecentPosts.STORE_NAME));
        Sensor handedOver = FanoutMetrics.followers(context, "chunked-followers", "followers put into big-V fan-out chunks");
        scheduler = new FanoutScheduler(graph, new FanoutJobs(context.getStateStore(FanoutJobs.STORE_NAME)), commits,
                settings, this::sendChunk, handedOver);
        scheduler.resume();
        backlog.add(scheduler);
        context.schedule(settings.tick(), PunctuationType.WALL_CLOCK_TIME, scheduler::tick);
        context.schedule(TOMBSTONE_SWEEP, PunctuationType.WALL_CLOCK_TIME, now -> {
            int forgotten = deletedBlogs.forgetOlderThan(settings.tombstoneRetention(), now);
            if (forgotten > 0) log.info("forgot {} tombstones of blogs deleted over {} ago", forgotten, settings.tombstoneRetention());
            recentPosts.forgetOlderThan(settings.recentPostRetention(), now);
        });
    }

    void close() {
        if (scheduler != null) backlog.remove(scheduler);
    }

    /**
     * The inline fan-out of a normal author's post, or of its delete, to those who followed before {@code before}, in
     * groups of as many followers as one script takes. For a post only those who followed before it: a replay after a
     * crash meets the graph as restored from its changelog, which may already hold later follows.
     */
    private void forEachFollowerGroup(long authorId, long before, Consumer<List<Long>> send) {
        List<Long> group = new ArrayList<>();
        graph.forEachFollower(authorId, before, follower -> {
            if (follower == authorId) return;
            group.add(follower);
            if (group.size() == UnreadChanges.MAX_USERS_PER_CALL) {
                send.accept(group);
                group.clear();
            }
        });
        if (!group.isEmpty()) send.accept(group);
    }

    void apply(BlogEvent event, UnreadChanges writer) {
        long authorId = event.authorId();
        boolean bigV = graph.isBigV(authorId);
        switch (event) {
            case BlogPublished published -> {
                long publishedAt = published.publishedAt().toEpochMilli();
                recentPosts.remember(authorId, published.blogId(), publishedAt);
                long deletedAt = deletedBlogs.deletedAt(authorId, published.blogId());
                if (deletedAt != DeletedBlogs.NOT_DELETED) {
                    removeFromEarlierFollowers(authorId, published.blogId(), publishedAt, deletedAt, bigV, writer);
                } else if (bigV) {
                    scheduler.start(FanoutChunk.Kind.DELIVER, authorId, published.blogId(), publishedAt, now());
                } else {
                    forEachFollowerGroup(authorId, publishedAt, group -> writer.deliverToEach(group, authorId, published.blogId(), publishedAt));
                }
            }
            case BlogDeleted deleted -> {
                long deletedAt = deleted.deletedAt().toEpochMilli();
                deletedBlogs.remember(authorId, deleted.blogId(), deletedAt);
                // Followers the delivery already reached get a remove (and a mark that outlives late chunks).
                scheduler.cancel(FanoutJob.idOf(FanoutChunk.Kind.DELIVER, deleted.blogId()));
                if (bigV) {
                    scheduler.start(FanoutChunk.Kind.REMOVE, authorId, deleted.blogId(), deletedAt, now());
                } else {
                    forEachFollowerGroup(authorId, Long.MAX_VALUE, group -> writer.deleteForEach(group, authorId, deleted.blogId(), deletedAt));
                }
            }
        }
    }

    /**
     * A publish processed after its delete delivers nothing, but the delete may have been processed before some of
     * those who followed before the post: they get the delete now. Redis may hold the post for them from a run that
     * processed the events in another order (a rebuild stopped partway, or this processor before a crash, as its Redis
     * writes run ahead of its changelog), and this run must take it back. A big-V author's removal walks every current
     * follower from the start again, also when one is still running (its walk may have passed such a follower).
     */
    private void removeFromEarlierFollowers(long authorId, long blogId, long publishedAt, long deletedAt, boolean bigV,
                                            UnreadChanges writer) {
        if (bigV) {
            scheduler.cancel(FanoutJob.idOf(FanoutChunk.Kind.REMOVE, blogId));
            scheduler.start(FanoutChunk.Kind.REMOVE, authorId, blogId, deletedAt, now());
        } else {
            forEachFollowerGroup(authorId, publishedAt, group -> writer.deleteForEach(group, authorId, blogId, deletedAt));
        }
    }

    private long now() {
        return context.currentSystemTimeMs();
    }

    /** Chunks of one job go to different partitions, so several workers can share a big fan-out. */
    private void sendChunk(FanoutChunk chunk) {
        byte[] key = (chunk.jobId() + "-" + chunkSequence++).getBytes(StandardCharsets.UTF_8);
        byte[] value = Topics.CHUNK_SERDE.serialize(null, chunk);
        context.forward(new Record<>(key, value, now()), fanoutSink);
    }
}
