package io.readmark.processor.graph;

/**
 * Who is big-V: an author becomes one at {@code threshold} followers and stops being one only below
 * {@code releaseBelow}, so an author hovering at the edge does not flip between the two fan-out paths.
 */
public record BigVPolicy(long threshold, long releaseBelow) {

    public BigVPolicy {
        if (threshold <= 0) throw new IllegalArgumentException("big-V threshold must be positive");
        if (releaseBelow <= 0 || releaseBelow > threshold) {
            throw new IllegalArgumentException("big-V release level must be in 1.." + threshold + ", was " + releaseBelow);
        }
    }

    /** The default release level: 10 % below the threshold. */
    public static BigVPolicy withThreshold(long threshold) {
        return new BigVPolicy(threshold, Math.max(1, threshold - threshold / 10));
    }

    boolean isBigV(long followers, boolean wasBigV) {
        return wasBigV ? followers >= releaseBelow : followers >= threshold;
    }
}
