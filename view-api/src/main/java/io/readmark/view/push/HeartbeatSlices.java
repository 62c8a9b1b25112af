package io.readmark.view.push;

/**
 * Which tick of a heartbeat serves a user's streams. Every stream of a user falls in the same slice, so its live key is
 * refreshed once per heartbeat; users spread evenly over the slices whatever pattern their ids follow (ids whose low
 * bits are all zero, as some id generators give, would otherwise all land in one).
 */
final class HeartbeatSlices {

    /** Ticks per heartbeat. */
    static final int SLICES = 16;

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private HeartbeatSlices() {
    }

    /** The slice, 0 to {@link #SLICES} - 1, of {@code userId}'s streams. */
    static int of(long userId) {
        long mixed = userId * GOLDEN_GAMMA;
        return (int) ((mixed >>> 32) % SLICES); // the high bits: a multiplication mixes the low ones into them
    }
}
