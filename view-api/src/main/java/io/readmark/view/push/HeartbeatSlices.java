package io.readmark.view.push;

/**
 * Which tick of a heartbeat serves a user's streams. Every stream of a user falls in the same slice, so its live key is
 * refreshed once per heartbeat; users spread evenly over the slices whatever pattern their ids follow (ids whose low
 * bits are all zero, as some id generators give, would otherwise all land in one).
 */
final class HeartbeatSlices {

    /** Ticks per heartbeat: a power of two, so the slice is the hash's top bits. */
    static final int SLICES = 16;
    private static final int SLICE_BITS = Integer.numberOfTrailingZeros(SLICES);

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private HeartbeatSlices() {
    }

    /** The slice, 0 to {@link #SLICES} - 1, of {@code userId}'s streams. */
    static int of(long userId) {
        // The top bits: a multiplication carries every bit of the id into them, and only into them.
        return (int) ((userId * GOLDEN_GAMMA) >>> (Long.SIZE - SLICE_BITS));
    }
}
