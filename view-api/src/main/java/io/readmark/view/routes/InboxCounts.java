package io.readmark.view.routes;

import io.readmark.store.notice.BroadcastUnread;
import io.readmark.store.unread.UnreadCounts;

/**
 * Everything a user has unread: blogs by author, targeted notices (kept by the write scripts) and broadcast notices
 * (computed at read time). {@code total} covers all three; {@code unseen} the blogs published after the inbox was
 * last seen.
 */
public record InboxCounts(UnreadCounts blogs, BroadcastUnread broadcasts) {

    public long total() {
        return blogs.total() + notices();
    }

    public long notices() {
        return blogs.targetedNotices() + broadcasts.count();
    }

    public long unseen() {
        return blogs.unseen();
    }
}
