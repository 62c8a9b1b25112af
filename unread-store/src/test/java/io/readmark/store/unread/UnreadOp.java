package io.readmark.store.unread;

import java.util.List;

/** One per-user change, as the stream processor submits it; applied alike to the model and to Redis. */
sealed interface UnreadOp {

    void applyTo(UnreadModel model);

    void applyTo(UnreadWriter writer);

    record Deliver(long user, long author, long blog, long publishedAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.deliver(user, author, blog, publishedAt); }
        public void applyTo(UnreadWriter writer) { writer.deliver(user, author, blog, publishedAt); }
    }

    /** Deliveries of one blog to several followers at once, as the big-V worker makes them. */
    record DeliverToEach(List<Long> users, long author, long blog, long publishedAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { users.forEach(user -> model.deliver(user, author, blog, publishedAt)); }
        public void applyTo(UnreadWriter writer) { writer.deliverToEach(users, author, blog, publishedAt); }
    }

    /** A delete for several followers at once, as the big-V worker and the inline fan-out send it. */
    record DeleteForEach(List<Long> users, long author, long blog, long at) implements UnreadOp {
        public void applyTo(UnreadModel model) { users.forEach(user -> model.remove(user, author, blog, at)); }
        public void applyTo(UnreadWriter writer) { writer.deleteForEach(users, author, blog, at); }
    }

    /** A read (from read-events) or a delete (fanned out from blog-events). */
    record Remove(long user, long author, long blog, long at) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.remove(user, author, blog, at); }
        public void applyTo(UnreadWriter writer) { writer.remove(user, author, blog, at); }
    }

    record ReadAll(long user, long author, long readAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.readAll(user, author, readAt); }
        public void applyTo(UnreadWriter writer) { writer.readAll(user, author, readAt); }
    }

    record AllRead(long user, long readAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.allRead(user, readAt); }
        public void applyTo(UnreadWriter writer) { writer.allRead(user, readAt); }
    }

    record InboxSeen(long user, long seenAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.inboxSeen(user, seenAt); }
        public void applyTo(UnreadWriter writer) { writer.inboxSeen(user, seenAt); }
    }

    record Follow(long user, long author, long at) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.follow(user, author, at); }
        public void applyTo(UnreadWriter writer) { writer.follow(user, author, at); }
    }

    record Unfollow(long user, long author, long at) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.unfollow(user, author, at); }
        public void applyTo(UnreadWriter writer) { writer.unfollow(user, author, at); }
    }

    record UnfollowBefore(long user, long author, long unfollowedAt, long followedAgainAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.unfollowBefore(user, author, unfollowedAt, followedAgainAt); }
        public void applyTo(UnreadWriter writer) { writer.unfollowBefore(user, author, unfollowedAt, followedAgainAt); }
    }

    /** {@code expiresAt} 0: never expires. */
    record NoticePublished(String audience, long notice, long publishedAt, long expiresAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.noticePublished(audience, notice, publishedAt, expiresAt); }
        public void applyTo(UnreadWriter writer) { writer.noticePublished(audience, notice, publishedAt, expiresAt); }
    }

    record NoticeWithdrawn(String audience, long notice, long at) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.noticeWithdrawn(audience, notice, at); }
        public void applyTo(UnreadWriter writer) { writer.noticeWithdrawn(audience, notice, at); }
    }

    /** A join ({@code joined}) or a leave of an audience. */
    record Membership(long user, String audience, boolean joined, long at) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.membership(user, audience, joined, at); }
        public void applyTo(UnreadWriter writer) {
            if (joined) writer.audienceJoined(user, audience, at); else writer.audienceLeft(user, audience, at);
        }
    }

    /** One recipient's share of a NoticeSent. */
    record NoticeSent(long user, long notice, long sentAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.noticeSent(user, notice, sentAt); }
        public void applyTo(UnreadWriter writer) { writer.noticeSent(user, notice, sentAt); }
    }

    record NoticeRead(long user, long notice, long readAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.noticeRead(user, notice, readAt); }
        public void applyTo(UnreadWriter writer) { writer.noticeRead(user, notice, readAt); }
    }

    record NoticesAllRead(long user, long readAt) implements UnreadOp {
        public void applyTo(UnreadModel model) { model.noticesAllRead(user, readAt); }
        public void applyTo(UnreadWriter writer) { writer.noticesAllRead(user, readAt); }
    }
}
