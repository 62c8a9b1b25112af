package io.readmark.store;

import java.util.Map;

/**
 * A user's unread counts: the total, how many of them are unseen (published after the user's seen watermark; all of
 * them when the user never saw the inbox), and one entry per author with unread blogs.
 */
public record UnreadCounts(long userId, long total, long unseen, Map<Long, Long> byAuthor) {
}
