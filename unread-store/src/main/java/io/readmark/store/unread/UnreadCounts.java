package io.readmark.store.unread;

/**
 * A user's unread counts: the total, how many of them are unseen (published after the user's seen watermark; all of
 * them when the user never saw the inbox), and one entry per author with unread blogs; and, beside the blogs, how many
 * targeted notices the user has unread (the counts hash's {@code notices} field: broadcasts are counted elsewhere). The
 * totals are always exact; past {@link BoundedHashRead#FIELDS} authors, {@code byAuthor} lists some of them and
 * {@code authorsOmitted} counts the others. {@code version} is the user's state version (the counts hash's {@code v},
 * bumped by every script that changes what the user sees, {@code notify.lua}); 0 for a user Redis has no change of.
 */
public record UnreadCounts(long userId, long total, long unseen, AuthorCounts byAuthor, long targetedNotices,
                           long authorsOmitted, long version) {
}
