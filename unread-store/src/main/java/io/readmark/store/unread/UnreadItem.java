package io.readmark.store.unread;

import java.time.Instant;
import java.util.Comparator;

/** One unread blog as a list shows it. */
public record UnreadItem(long blogId, long authorId, Instant publishedAt) {

    /** Newest first; equal instants by authorId, then blogId, both descending: a total order, so pages never overlap. */
    public static final Comparator<UnreadItem> NEWEST_FIRST = Comparator.comparing(UnreadItem::publishedAt)
            .thenComparingLong(UnreadItem::authorId)
            .thenComparingLong(UnreadItem::blogId)
            .reversed();
}
