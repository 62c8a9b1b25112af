package io.readmark.store;

/**
 * Bounds on what one user keeps: the newest {@code maxUnreadPerAuthor} unread blogs per author (counts equal what is
 * kept) and the newest {@code maxMarksPerUser} read/delete marks that keep late deliveries from resurfacing.
 */
public record UnreadLimits(int maxUnreadPerAuthor, int maxMarksPerUser) {

    public static final UnreadLimits DEFAULTS = new UnreadLimits(1000, 1000);

    public UnreadLimits {
        if (maxUnreadPerAuthor <= 0) throw new IllegalArgumentException("maxUnreadPerAuthor must be positive");
        if (maxMarksPerUser <= 0) throw new IllegalArgumentException("maxMarksPerUser must be positive");
    }
}
