package io.readmark.store;

import java.util.Map;

/** A user's unread counts: the total and one entry per author with unread blogs. */
public record UnreadCounts(long userId, long total, Map<Long, Long> byAuthor) {
}
