package io.readmark.store.unread;

import java.nio.ByteBuffer;

/**
 * An unread entry as the layout stores it (counters.lua): its second, clamped to what four bytes hold (before 1970
 * counts as 1970, after 2106 as 2106), and its 12-byte record, (MAX_SECOND + 1 - second) then the blogId big-endian,
 * whose byte order is newest second first, then blogId ascending. Computed here so scripts need not; public for the
 * bench, which writes the delivery scripts' arguments itself.
 */
public final class EntryRecord {

    public static final int BYTES = 12;
    public static final long MAX_SECOND = 4_294_967_294L;

    private EntryRecord() {
    }

    /** The second of a moment in ms, as scripts compare entries and floors. */
    public static long second(long millis) {
        return Math.min(MAX_SECOND, Math.max(0, Math.floorDiv(millis, 1000)));
    }

    public static byte[] of(long second, long blogId) {
        return ByteBuffer.allocate(BYTES).putInt((int) (MAX_SECOND + 1 - second)).putLong(blogId).array();
    }

    public static byte[] idBytes(long id) {
        return ByteBuffer.allocate(Long.BYTES).putLong(id).array();
    }
}
