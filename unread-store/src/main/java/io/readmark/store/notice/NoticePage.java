package io.readmark.store.notice;

import java.util.List;

/** One newest-first page of a user's notice inbox; {@code nextCursor} is null on the last page. */
public record NoticePage(List<NoticeItem> items, String nextCursor) {
}
