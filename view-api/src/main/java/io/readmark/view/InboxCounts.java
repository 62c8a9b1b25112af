package io.readmark.view;

import io.readmark.store.BroadcastUnread;
import io.readmark.store.UnreadCounts;

/**
 * Everything a user has unread: blogs by author, targeted notices (kept by the write scripts) and broadcast notices
 * (computed at read time). {@code total} covers all three; {@code unseen} the blogs published after the inbox was
 * last seen.
 */
record InboxCounts(UnreadCounts blogs, BroadcastUnread broadcasts) {

    long total() {
        return blogs.total() + notices();
    }

    long notices() {
        return blogs.targetedNotices() + broadcasts.count();
    }

    long unseen() {
        return blogs.unseen();
    }
}
