package io.readmark.store.notice;

import java.util.Comparator;

/**
 * One notice of a user's notice inbox, read or not.
 *
 * @param audience        the audience it was broadcast to, or null for a notice sent to the user (targeted)
 * @param atMillis        when it was published (broadcast) or sent (targeted)
 * @param expiresAtMillis when a broadcast stops being readable, or 0 when it never does
 */
public record NoticeItem(long noticeId, String audience, long atMillis, long expiresAtMillis, boolean read) {

    /**
     * Newest first; equal times by the id's decimal text, descending: Redis's own order of a sorted set's ties, so a
     * cursor continues the inbox's {@code ZREVRANGEBYSCORE} and the in-memory broadcasts alike.
     */
    public static final Comparator<NoticeItem> NEWEST_FIRST = Comparator.comparingLong(NoticeItem::atMillis)
            .thenComparing(item -> Long.toString(item.noticeId()))
            .reversed();

    public boolean broadcast() {
        return audience != null;
    }
}
