package io.readmark.processor;

import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogEvent;
import io.readmark.schemas.BlogPublished;
import io.readmark.store.UnreadWriter;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/** Fans a publish or a delete out to every current follower of the author (never to the author). */
final class BlogEventProcessor extends EventProcessor<BlogEvent> {

    private FollowerGraph graph;

    BlogEventProcessor(ThreadWriters writers, String deadLetterSink) {
        super(BlogEvent.class, writers, deadLetterSink);
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        super.init(context);
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(FollowerGraph.STORE_NAME);
        graph = new FollowerGraph(store);
    }

    @Override
    void apply(BlogEvent event, UnreadWriter writer) {
        long authorId = event.authorId();
        switch (event) {
            case BlogPublished published -> {
                long publishedAt = published.publishedAt().toEpochMilli();
                graph.forEachFollower(authorId, follower -> {
                    if (follower != authorId) writer.deliver(follower, authorId, published.blogId(), publishedAt);
                });
            }
            case BlogDeleted deleted -> {
                long deletedAt = deleted.deletedAt().toEpochMilli();
                graph.forEachFollower(authorId, follower -> writer.remove(follower, authorId, deleted.blogId(), deletedAt));
            }
        }
    }
}
