package io.readmark.store.notice;

import io.readmark.store.unread.UnreadKeys;

/**
 * Names of the notice keys. An audience's notices carry the audience's hash tag {@code {a:<audience>}} and a user's
 * notice state the user's {@code {u:<userId>}}, so each notice script touches one Redis Cluster slot. A broadcast is
 * stored once per audience (read diffusion); a user keeps only memberships, read marks and the targeted inbox.
 */
public final class NoticeKeys {

    /** The audience every user is a member of, since always: nobody joins or leaves it (as the events say). */
    public static final String EVERYONE = "everyone";
    /**
     * The field of a user's audiences hash that holds the larger of their notice floors ({@code NoticesAllRead},
     * {@code AllRead}); no audience name starts with {@code #}.
     */
    public static final String NOTICE_FLOOR = "#floor";
    /**
     * The field of a user's audiences hash that changes with every change of their read marks (notice_read.lua): a
     * reader that kept marks asks Redis again only when it changed ({@link KnownReads}).
     */
    public static final String READS_STAMP = "#reads";

    private final String prefix;

    public NoticeKeys(String prefix) {
        this.prefix = new UnreadKeys(prefix).prefix(); // the same rules for a prefix
    }

    /** Sorted set of the audience's live notices: member noticeId, score publishedAt ms; the newest are kept. */
    public String audienceNotices(String audience) {
        return audience(audience) + ":notices";
    }

    /** Hash noticeId → expiresAt ms, for the audience's live notices that expire. */
    public String audienceExpiry(String audience) {
        return audience(audience) + ":expiry";
    }

    /** Sorted set of the audience's withdrawn notices, noticeId → withdrawnAt ms, so a late publish stays withdrawn. */
    public String audienceWithdrawn(String audience) {
        return audience(audience) + ":withdrawn";
    }

    /** The Pub/Sub channel on which the audience's publishes and withdrawals are announced. */
    public String audienceChanges(String audience) {
        return audience(audience) + ":changes";
    }

    /** Hash audience → {@code J<ms>} (joined then) or {@code L<ms>} (left then), and {@link #NOTICE_FLOOR}. */
    public String audiences(long userId) {
        return user(userId) + ":audiences";
    }

    /** Sorted set of the notices the user read, broadcast or targeted: noticeId → readAt ms; the newest are kept. */
    public String noticeReads(long userId) {
        return user(userId) + ":notice-reads";
    }

    /** Sorted set of the user's targeted notices, the inbox: noticeId → sentAt ms; read ones stay. */
    public String inbox(long userId) {
        return user(userId) + ":notices";
    }

    /** The SCAN MATCH pattern of every user's inbox under this prefix (reconcile). */
    public String inboxPattern() {
        StringBuilder escaped = new StringBuilder();
        for (char c : prefix.toCharArray()) {
            if ("*?[]\\".indexOf(c) >= 0) escaped.append('\\');
            escaped.append(c);
        }
        return escaped + ":{u:*}:notices";
    }

    /** The user of an inbox key, or -1 when the key is not an inbox key of this prefix. */
    public long userOfInbox(String key) {
        String start = prefix + ":{u:";
        String end = "}:notices";
        if (!key.startsWith(start) || !key.endsWith(end) || key.length() <= start.length() + end.length()) return -1;
        return UnreadKeys.id(key.substring(start.length(), key.length() - end.length()));
    }

    private String audience(String audience) {
        return prefix + ":{a:" + audience + "}";
    }

    private String user(long userId) {
        return prefix + ":{u:" + userId + "}";
    }
}
