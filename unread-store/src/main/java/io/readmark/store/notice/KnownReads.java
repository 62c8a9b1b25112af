package io.readmark.store.notice;

/**
 * A user's read marks among the ids a counts read last asked for, stamped with the user's read-marks stamp
 * ({@link NoticeKeys#READS_STAMP}, set by every script that changes the marks). While the stamp and the ids asked for
 * are the same, the marks are too, so the next read need not ask Redis for them. At most {@value #MAX_IDS} ids.
 */
public final class KnownReads {

    /** More ids than this are not kept: a read then asks Redis each time, as it does without a hint. */
    static final int MAX_IDS = 64;

    private final String stamp;
    private final NoticeIds asked;
    private final NoticeIds read;

    private KnownReads(String stamp, NoticeIds asked, NoticeIds read) {
        this.stamp = stamp;
        this.asked = asked;
        this.read = read;
    }

    /**
     * The marks among {@code asked} that Redis answered after the hash that held {@code stamp} was read; null when
     * there is nothing worth keeping (no ids), too much ({@value #MAX_IDS} ids), or marks without a stamp: those were
     * written by something other than notice_read.lua (a version before the stamp, a hand-made write), which would
     * not stamp the next change either.
     */
    static KnownReads of(String stamp, NoticeIds asked, NoticeIds read) {
        if (asked.isEmpty() || asked.size() > MAX_IDS || (stamp.isEmpty() && !read.isEmpty())) return null;
        return new KnownReads(stamp, asked, read);
    }

    /** Whether these are the marks of exactly these ids under this stamp. */
    boolean answers(String stamp, NoticeIds ids) {
        return this.stamp.equals(stamp) && asks(ids);
    }

    /** Whether these are the marks of exactly these ids. */
    boolean asks(NoticeIds ids) {
        return asked.equals(ids);
    }

    NoticeIds read() {
        return read;
    }

    @Override
    public String toString() {
        return "KnownReads[" + stamp + ", " + asked + ", read " + read + "]";
    }
}
