package io.readmark.store;

import java.time.Instant;

/** One unread blog as a list shows it. */
public record UnreadItem(long blogId, long authorId, Instant publishedAt) {
}
