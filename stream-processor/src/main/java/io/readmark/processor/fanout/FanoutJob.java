package io.readmark.processor.fanout;

import io.readmark.schemas.FanoutChunk;

/**
 * The durable state of one big-V fan-out: which blog, delivered or removed, to how many followers, and the
 * follower id up to which chunks are known to be stored in Kafka ({@code durableCursor}). After a crash the
 * fan-out resumes after that cursor; chunks sent again past it are harmless because scripts are idempotent.
 */
public record FanoutJob(String jobId, FanoutChunk.Kind kind, long authorId, long blogId, long atMillis,
                 long totalFollowers, long durableCursor, long durableFollowers, long startedAtMillis) {

    static FanoutJob start(FanoutChunk.Kind kind, long authorId, long blogId, long atMillis, long totalFollowers, long nowMillis) {
        return new FanoutJob(idOf(kind, blogId), kind, authorId, blogId, atMillis, totalFollowers, 0, 0, nowMillis);
    }

    public static String idOf(FanoutChunk.Kind kind, long blogId) {
        return (kind == FanoutChunk.Kind.DELIVER ? "deliver-" : "remove-") + blogId;
    }

    FanoutJob withDurableProgress(long cursor, long followers) {
        return new FanoutJob(jobId, kind, authorId, blogId, atMillis, totalFollowers, cursor, followers, startedAtMillis);
    }
}
