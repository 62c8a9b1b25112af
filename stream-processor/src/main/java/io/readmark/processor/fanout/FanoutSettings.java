package io.readmark.processor.fanout;

import io.readmark.processor.graph.BigVPolicy;

import java.time.Duration;

/**
 * How the blog-event task fans out: who is big-V, how big a chunk is, how many chunks one tick of the scheduler
 * may emit (bounding the time the stream thread spends on big-V work between normal records), how long deleted
 * blogs are remembered, how long posts are remembered for follows processed after them, and above how many recipients
 * a targeted notice goes through the chunked path instead of inline.
 */
public record FanoutSettings(BigVPolicy policy, int chunkSize, int chunksPerTick, Duration tick, Duration tombstoneRetention,
                             Duration recentPostRetention, int noticeInlineRecipients) {

    public static final int DEFAULT_NOTICE_INLINE_RECIPIENTS = 1_000;

    public FanoutSettings(BigVPolicy policy, int chunkSize, int chunksPerTick, Duration tick, Duration tombstoneRetention,
                          Duration recentPostRetention) {
        this(policy, chunkSize, chunksPerTick, tick, tombstoneRetention, recentPostRetention, DEFAULT_NOTICE_INLINE_RECIPIENTS);
    }

    public FanoutSettings {
        if (chunkSize <= 0) throw new IllegalArgumentException("fan-out chunk size must be positive");
        if (chunksPerTick <= 0) throw new IllegalArgumentException("fan-out chunks per tick must be positive");
        if (tick.isNegative() || tick.isZero()) throw new IllegalArgumentException("fan-out tick must be positive");
        if (noticeInlineRecipients <= 0) throw new IllegalArgumentException("notice inline recipients must be positive");
        // A follow processed late gets the posts it still remembers, and sends the delete of those deleted; a post
        // remembered after its delete was forgotten would be delivered to it although deleted. A post is forgotten by
        // its publish time and a delete by its own, so this holds for deletes stamped no earlier than their publish.
        if (recentPostRetention.compareTo(tombstoneRetention) > 0) {
            throw new IllegalArgumentException("PROCESSOR_RECENT_POST_RETENTION (" + recentPostRetention
                    + ") must not exceed PROCESSOR_DELETED_BLOG_RETENTION (" + tombstoneRetention + ")");
        }
    }
}
