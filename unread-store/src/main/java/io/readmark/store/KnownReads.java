package io.readmark.store;

import java.util.Arrays;

/**
 * A user's read marks among the ids a counts read last asked for, stamped with the user's read-marks stamp
 * ({@link NoticeKeys#READS_STAMP}, set by every script that changes the marks). While the stamp and the ids asked for
 * are the same, the marks are too, so the next read need not ask Redis for them. At most {@value #MAX_IDS} ids.
 */
public final class KnownReads {

    /** More ids than this are not kept: a read then asks Redis each time, as it does without a hint. */
    static final int MAX_IDS = 64;

    private final String stamp;
    private final long[] asked;
    private final long readMask;

    private KnownReads(String stamp, long[] asked, long readMask) {
        this.stamp = stamp;
        this.asked = asked;
        this.readMask = readMask;
    }

    /**
     * The marks among {@code asked} that Redis answered after the hash that held {@code stamp} was read; null when
     * there is nothing worth keeping (no ids), too much ({@value #MAX_IDS} ids), or marks without a stamp: those were
     * written by something other than notice_read.lua (a version before the stamp, a hand-made write), which would
     * not stamp the next change either.
     */
    static KnownReads of(String stamp, NoticeIds asked, NoticeIds read) {
        if (asked.isEmpty() || asked.size() > MAX_IDS || (stamp.isEmpty() && !read.isEmpty())) return null;
        long[] ids = new long[asked.size()];
        long mask = 0;
        for (int i = 0; i < ids.length; i++) {
            ids[i] = asked.get(i);
            if (read.contains(ids[i])) mask |= 1L << i;
        }
        return new KnownReads(stamp, ids, mask);
    }

    /** Whether these are the marks of exactly these ids under this stamp. */
    boolean answers(String stamp, NoticeIds ids) {
        return this.stamp.equals(stamp) && asks(ids);
    }

    /** Whether these are the marks of exactly these ids. */
    boolean asks(NoticeIds ids) {
        if (ids.size() != asked.length) return false;
        for (int i = 0; i < asked.length; i++) {
            if (ids.get(i) != asked[i]) return false;
        }
        return true;
    }

    NoticeIds read() {
        if (readMask == 0) return NoticeIds.NONE;
        long[] read = new long[Long.bitCount(readMask)];
        int length = 0;
        for (int i = 0; i < asked.length; i++) {
            if ((readMask & (1L << i)) != 0) read[length++] = asked[i];
        }
        return NoticeIds.sortedDistinct(read, length);
    }

    @Override
    public String toString() {
        return "KnownReads[" + stamp + ", " + Arrays.toString(asked) + ", read " + Long.toBinaryString(readMask) + "]";
    }
}
