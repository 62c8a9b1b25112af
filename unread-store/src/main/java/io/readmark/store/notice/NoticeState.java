package io.readmark.store.notice;

/**
 * One notice as one user sees it: readable when it is in their inbox or live in one of their audiences (published
 * after they joined, not expired); read when they read it, or read everything up to it.
 *
 * @param notice the notice when readable, else null
 */
public record NoticeState(long noticeId, boolean readable, boolean read, NoticeItem notice) {
}
