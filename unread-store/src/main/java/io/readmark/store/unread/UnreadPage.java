package io.readmark.store.unread;

import java.util.List;

/** One newest-first page; {@code nextCursor} is null on the last page. */
public record UnreadPage(List<UnreadItem> items, String nextCursor) {
}
