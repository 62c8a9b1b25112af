package io.readmark.processor.fanout;

import io.readmark.processor.graph.BigVPolicy;

import java.time.Duration;

/**
 * How the blog-event task fans out: who is big-V, how big a chunk is, how many chunks one tick of the scheduler
 * may emit (bounding the time the stream thread spends on big-V work between normal records), how long deleted
 * blogs are remembered, and how long posts are remembered for follows processed after them.
 */
public record FanoutSettings(BigVPolicy policy, int chunkSize, int chunksPerTick, Duration tick, Duration tombstoneRetention,
                             Duration recentPostRetention) {

    public FanoutSettings {
        if (chunkSize <= 0) throw new IllegalArgumentException("fan-out chunk size must be positive");
        if (chunksPerTick <= 0) throw new IllegalArgumentException("fan-out chunks per tick must be positive");
        if (tick.isNegative() || tick.isZero()) throw new IllegalArgumentException("fan-out tick must be positive");
    }
}
