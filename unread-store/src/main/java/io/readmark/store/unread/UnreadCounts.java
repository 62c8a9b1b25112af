package io.readmark.store.unread;

/**
 * A user's unread counts: the total, how many of them are unseen (published after the user's seen watermark; all of
 * them when the user never saw the inbox), and one entry per author with unread blogs; and, beside the blogs, how many
 * targeted notices the user has unread (h's {@code notices} field: broadcasts are counted elsewhere). All exact:
 * {@code byAuthor} lists every author (the per-user cap bounds them), so {@code authorsOmitted}, which an API answer
 * keeps for clients, is 0. {@code version} is the user's state version (h's {@code v},
 * bumped by every script that changes what the user sees, {@code notify.lua}); 0 for a user Redis has no change of.
 */
public record UnreadCounts(long userId, long total, long unseen, AuthorCounts byAuthor, long targetedNotices,
                           long authorsOmitted, long version) {
}
