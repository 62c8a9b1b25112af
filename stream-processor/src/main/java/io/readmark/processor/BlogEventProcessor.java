package io.readmark.processor;

import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogEvent;
import io.readmark.schemas.BlogPublished;
import io.readmark.store.UnreadWriter;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Fans a publish or a delete out to every current follower of the author (never to the author). A publish whose
 * delete was processed first is not fanned out: the delete wins.
 */
final class BlogEventProcessor extends EventProcessor<BlogEvent> {

    private static final Logger log = LoggerFactory.getLogger(BlogEventProcessor.class);

    private final Duration tombstoneRetention;
    private FollowerGraph graph;
    private DeletedBlogs deletedBlogs;

    BlogEventProcessor(ThreadWriters writers, String deadLetterSink, Duration tombstoneRetention) {
        super(BlogEvent.class, writers, deadLetterSink);
        this.tombstoneRetention = tombstoneRetention;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        super.init(context);
        KeyValueStore<Bytes, byte[]> followers = context.getStateStore(FollowerGraph.STORE_NAME);
        KeyValueStore<Bytes, byte[]> tombstones = context.getStateStore(DeletedBlogs.STORE_NAME);
        graph = new FollowerGraph(followers);
        deletedBlogs = new DeletedBlogs(tombstones);
        context.schedule(Duration.ofHours(1), PunctuationType.WALL_CLOCK_TIME, now -> {
            int forgotten = deletedBlogs.forgetOlderThan(tombstoneRetention, now);
            if (forgotten > 0) log.info("forgot {} tombstones of blogs deleted over {} ago", forgotten, tombstoneRetention);
        });
    }

    @Override
    void apply(BlogEvent event, UnreadWriter writer) {
        long authorId = event.authorId();
        switch (event) {
            case BlogPublished published -> {
                if (deletedBlogs.isDeleted(authorId, published.blogId())) return;
                long publishedAt = published.publishedAt().toEpochMilli();
                graph.forEachFollower(authorId, follower -> {
                    if (follower != authorId) writer.deliver(follower, authorId, published.blogId(), publishedAt);
                });
            }
            case BlogDeleted deleted -> {
                long deletedAt = deleted.deletedAt().toEpochMilli();
                deletedBlogs.remember(authorId, deleted.blogId(), deletedAt);
                graph.forEachFollower(authorId, follower -> writer.remove(follower, authorId, deleted.blogId(), deletedAt));
            }
        }
    }
}
