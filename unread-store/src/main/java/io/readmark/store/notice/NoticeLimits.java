package io.readmark.store.notice;

/**
 * Bounds on notice state: the newest {@code maxNoticesPerAudience} live notices of an audience, the newest
 * {@code maxTargetedNotices} entries of a user's inbox (counts.notices equals what is kept), the newest
 * {@code maxNoticeReads} read marks of a user and {@code maxWithdrawn} tombstones of an audience.
 */
public record NoticeLimits(int maxNoticesPerAudience, int maxTargetedNotices, int maxNoticeReads, int maxWithdrawn) {

    public static final NoticeLimits DEFAULTS = new NoticeLimits(100, 1000, 10_000, 1000);

    public NoticeLimits {
        if (maxNoticesPerAudience <= 0) throw new IllegalArgumentException("maxNoticesPerAudience must be positive");
        if (maxTargetedNotices <= 0) throw new IllegalArgumentException("maxTargetedNotices must be positive");
        if (maxNoticeReads <= 0) throw new IllegalArgumentException("maxNoticeReads must be positive");
        if (maxWithdrawn <= 0) throw new IllegalArgumentException("maxWithdrawn must be positive");
    }

    /** The two limits a deployment sets, and the defaults for the rest. */
    public static NoticeLimits of(int maxNoticesPerAudience, int maxTargetedNotices) {
        return new NoticeLimits(maxNoticesPerAudience, maxTargetedNotices, DEFAULTS.maxNoticeReads(), DEFAULTS.maxWithdrawn());
    }
}
