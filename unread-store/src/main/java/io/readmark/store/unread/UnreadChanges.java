package io.readmark.store.unread;

import java.util.List;

/**
 * The unread changes a processor makes, in the order it makes them. {@link UnreadWriter} applies them to Redis;
 * tests of the topologies record them instead.
 */
public interface UnreadChanges {

    /**
     * Followers a {@link #deliverToEach} or {@link #deleteForEach} call is best given at once: one script's worth, short
     * enough that other clients' commands do not wait long behind it.
     */
    int MAX_USERS_PER_CALL = 100;

    /** The blog became unread for the user, unless a mark, a floor or the per-author cap keeps it out. */
    void deliver(long userId, long authorId, long blogId, long publishedAtMillis);

    /**
     * The blog became unread for each of the users, as {@link #deliver} makes it for one. The list is read during the
     * call only: the caller may reuse it.
     */
    default void deliverToEach(List<Long> userIds, long authorId, long blogId, long publishedAtMillis) {
        for (long userId : userIds) deliver(userId, authorId, blogId, publishedAtMillis);
    }

    /** The blog was read by the user, or deleted: it is not unread now and will not become unread later. */
    void remove(long userId, long authorId, long blogId, long atMillis);

    /**
     * The blog was deleted: the same effect as {@link #remove}; a writer that tells open streams why something changed
     * says so.
     */
    default void delete(long userId, long authorId, long blogId, long atMillis) {
        remove(userId, authorId, blogId, atMillis);
    }

    /**
     * The blog was deleted, for each of the users, as {@link #delete} does it for one. The list is read during the call
     * only: the caller may reuse it.
     */
    default void deleteForEach(List<Long> userIds, long authorId, long blogId, long atMillis) {
        for (long userId : userIds) delete(userId, authorId, blogId, atMillis);
    }

    /** The user read everything of the author published up to {@code readAtMillis}. */
    void readAll(long userId, long authorId, long readAtMillis);

    /**
     * The user read everything of every author published up to {@code readAtMillis}, and every notice. Its work grows
     * with the user's authors with unread, so it is applied in bounded steps, some sent only once Redis answered the
     * one before.
     */
    void allRead(long userId, long readAtMillis);

    /** The user saw the inbox at {@code seenAtMillis}: unread published up to then is no longer unseen. */
    void inboxSeen(long userId, long seenAtMillis);

    /** The user stopped following the author at {@code atMillis}: that author's unread is dropped for them. */
    void unfollow(long userId, long authorId, long atMillis);

    /**
     * The user followed the author at {@code atMillis}: after an unfollow of the pair, the author's posts published after
     * this follow are accepted again (nothing is written for a first follow).
     */
    default void follow(long userId, long authorId, long atMillis) {
        follow(userId, authorId, atMillis, NO_UNFOLLOW);
    }

    /**
     * As {@link #follow(long, long, long)}, knowing the pair's last unfollow before this follow: a re-follow recorded
     * later than this one moves back to it.
     *
     * @param unfollowedBeforeMillis the unfollow, or {@link #NO_UNFOLLOW} when none is known
     */
    void follow(long userId, long authorId, long atMillis, long unfollowedBeforeMillis);

    /** No unfollow known before a follow. */
    long NO_UNFOLLOW = Long.MIN_VALUE;

    /**
     * The user stopped following the author at {@code unfollowedAtMillis} and followed again at
     * {@code followedAgainAtMillis}, and the re-follow was processed first: the state {@link #unfollow} then
     * {@link #follow} leave, but the author's unread published after the re-follow, delivered meanwhile, stays.
     */
    void unfollowBefore(long userId, long authorId, long unfollowedAtMillis, long followedAgainAtMillis);

    /**
     * A notice was published to an audience, stored once for all its members; {@code expiresAtMillis} is 0 for a notice
     * that does not expire.
     */
    void noticePublished(String audience, long noticeId, long publishedAtMillis, long expiresAtMillis);

    /** A notice of an audience was withdrawn: unread for nobody, even if its publish comes later. */
    void noticeWithdrawn(String audience, long noticeId, long withdrawnAtMillis);

    /** The user joined the audience at {@code atMillis}; the later of a join and a leave wins. */
    void audienceJoined(long userId, String audience, long atMillis);

    /** The user left the audience at {@code atMillis}; the later of a join and a leave wins, a leave wins a tie. */
    void audienceLeft(long userId, String audience, long atMillis);

    /** A targeted notice reached one recipient's inbox, unread unless a read mark or a floor covers it. */
    void noticeSent(long userId, long noticeId, long sentAtMillis);

    /** The user read a notice, broadcast or targeted; it stays read if it arrives later. */
    void noticeRead(long userId, long noticeId, long readAtMillis);

    /** The user read every notice published or sent up to {@code readAtMillis}. */
    void noticesAllRead(long userId, long readAtMillis);

    /** Sends what is buffered without waiting for replies. */
    void flush();

    /**
     * Sends what is buffered and blocks until the writes that wait for Redis's answer make at most {@code unanswered}
     * per-user changes (a delivery to each of many users counts each): how much a caller keeps queued in Redis ahead of
     * everyone else's commands.
     */
    void awaitUnansweredAtMost(int unanswered);
}
