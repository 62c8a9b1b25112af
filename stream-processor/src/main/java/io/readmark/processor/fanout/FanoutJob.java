package io.readmark.processor.fanout;

import io.readmark.processor.graph.FollowerGraph;
import io.readmark.schemas.FanoutChunk;

/**
 * The durable state of one big-V fan-out: which blog, delivered or removed, to how many followers, and the place in
 * the author's walk ({@code durableSlot}, {@code durableCursor}: a slot and the last follower id in it) up to which
 * chunks are known to be stored in Kafka. After a crash the fan-out resumes after that place; chunks sent again past
 * it are harmless because scripts are idempotent.
 */
public record FanoutJob(String jobId, FanoutChunk.Kind kind, long authorId, long blogId, long atMillis,
                 long totalFollowers, int durableSlot, long durableCursor, long durableFollowers, long startedAtMillis) {

    static FanoutJob start(FanoutChunk.Kind kind, long authorId, long blogId, long atMillis, long totalFollowers, long nowMillis) {
        FollowerGraph.Position start = FollowerGraph.Position.START;
        return new FanoutJob(idOf(kind, blogId), kind, authorId, blogId, atMillis, totalFollowers, start.slot(),
                start.followerId(), 0, nowMillis);
    }

    public static String idOf(FanoutChunk.Kind kind, long blogId) {
        return (kind == FanoutChunk.Kind.DELIVER ? "deliver-" : "remove-") + blogId;
    }

    FollowerGraph.Position durablePosition() {
        return new FollowerGraph.Position(durableSlot, durableCursor);
    }

    FanoutJob withDurableProgress(FollowerGraph.Position position, long followers) {
        return new FanoutJob(jobId, kind, authorId, blogId, atMillis, totalFollowers, position.slot(), position.followerId(),
                followers, startedAtMillis);
    }
}
