package io.readmark.processor.fanout;

import io.readmark.processor.commit.ThreadChanges;
import io.readmark.processor.deadletters.RejectedRecords;
import io.readmark.schemas.FanoutChunk;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import io.readmark.store.unread.UnreadChanges;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.List;

/**
 * The big-V worker: applies one chunk of a fan-out (deliver to, or remove from, each follower in it; or a targeted
 * notice to each recipient in it) at the worker's rate limit, {@code burst} writes at a time: after sending a burst it
 * waits until every earlier burst is answered, so at most two bursts wait in Redis and Redis runs one while the next
 * is encoded. Redis runs one script at a time, so every normal author's write and read waits behind those queued:
 * small bursts keep that wait short. A burst of deliveries or removals goes out as few scripts as the writer can make
 * of it ({@link UnreadChanges#deliverToEach}, {@link UnreadChanges#deleteForEach}).
 * Offsets commit only after Redis acknowledged, so a killed worker resumes without loss.
 */
final class FanoutChunkProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    private final ThreadChanges writers;
    private final RateLimiter rateLimiter;
    private final int burst;
    private final FanoutProgress progress;
    private final RejectedRecords badRecords;
    private ProcessorContext<byte[], byte[]> context;
    private Sensor applied;

    FanoutChunkProcessor(ThreadChanges writers, RateLimiter rateLimiter, int burst, FanoutProgress progress, RejectedRecords badRecords) {
        this.writers = writers;
        this.rateLimiter = rateLimiter;
        this.burst = burst;
        this.progress = progress;
        this.badRecords = badRecords;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        applied = FanoutMetrics.followers(context, "deliveries", "big-V deliveries and removals applied by the worker");
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        FanoutChunk chunk;
        try {
            chunk = Topics.CHUNK_SERDE.decode(record.value());
        } catch (InvalidEventException e) {
            badRecords.reject(context, record, e);
            return;
        }
        UnreadChanges writer = writers.current();
        List<Long> followers = chunk.followerIds();
        for (int from = 0; from < followers.size(); from += burst) {
            int to = Math.min(followers.size(), from + burst);
            rateLimiter.acquire(to - from);
            List<Long> inBurst = followers.subList(from, to);
            long author = chunk.authorId();
            long item = chunk.blogId();
            long at = chunk.atMillis();
            switch (chunk.kind()) {
                case DELIVER -> writer.deliverToEach(inBurst, author, item, at);
                case REMOVE -> writer.deleteForEach(inBurst, author, item, at);
                case NOTICE -> inBurst.forEach(follower -> writer.noticeSent(follower, item, at));
            }
            writer.awaitUnansweredAtMost(to - from);
        }
        applied.record(chunk.followerIds().size());
        progress.applied(chunk, context.currentSystemTimeMs());
    }
}
