package io.readmark.store.unread;

import java.time.Instant;
import java.util.Comparator;

/** One unread blog as a list shows it. */
public record UnreadItem(long blogId, long authorId, Instant publishedAt) {

    /**
     * The merged list's order: newest second first; a second's items by blogId as text (the order Redis keeps equal
     * scores in), a total order as blog ids are unique, so pages never overlap.
     */
    public static final Comparator<UnreadItem> NEWEST_FIRST = Comparator.comparing(UnreadItem::publishedAt).reversed()
            .thenComparing(item -> Long.toString(item.blogId()));
}
