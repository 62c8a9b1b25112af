package io.readmark.store.unread;

import io.readmark.store.notice.NoticeLimits;

/**
 * Bounds on what one user keeps: the newest {@code maxUnreadPerAuthor} unread blogs per author and the newest
 * {@code maxUnreadPerUser} across authors (counts equal what is kept; the per-user bound is what bounds a merged page
 * and a counts read), the newest {@code maxMarksPerUser} read/delete marks that keep late deliveries from
 * resurfacing; and the bounds on notices.
 */
public record UnreadLimits(int maxUnreadPerAuthor, int maxUnreadPerUser, int maxMarksPerUser, NoticeLimits notices) {

    public static final UnreadLimits DEFAULTS = new UnreadLimits(1000, 1000, 1000);

    public UnreadLimits {
        if (maxUnreadPerAuthor <= 0) throw new IllegalArgumentException("maxUnreadPerAuthor must be positive");
        if (maxUnreadPerUser <= 0) throw new IllegalArgumentException("maxUnreadPerUser must be positive");
        if (maxMarksPerUser <= 0) throw new IllegalArgumentException("maxMarksPerUser must be positive");
        if (notices == null) throw new IllegalArgumentException("notice limits are required");
    }

    /** The default bounds on notices. */
    public UnreadLimits(int maxUnreadPerAuthor, int maxUnreadPerUser, int maxMarksPerUser) {
        this(maxUnreadPerAuthor, maxUnreadPerUser, maxMarksPerUser, NoticeLimits.DEFAULTS);
    }
}
