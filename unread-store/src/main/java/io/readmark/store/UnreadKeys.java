package io.readmark.store;

/**
 * Names of one user's Redis keys. Every key carries the user's hash tag {@code {u:<userId>}}, so all keys a script
 * touches live in one Redis Cluster slot; names are built here and passed to scripts in KEYS, never built in Lua.
 */
public final class UnreadKeys {

    public static final String DEFAULT_PREFIX = "rm";

    private final String prefix;

    public UnreadKeys(String prefix) {
        if (prefix == null || prefix.isBlank() || prefix.contains("{") || prefix.contains("}")) {
            throw new IllegalArgumentException("Redis key prefix must be non-empty and free of braces, was '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    /** Sorted set of the user's unread blogs by one author: member blogId, score publishedAt in ms. */
    public String unread(long userId, long authorId) {
        return user(userId) + ":unread:" + authorId;
    }

    /** Hash of the user's unread counts: field authorId and field {@code total}. */
    public String counts(long userId) {
        return user(userId) + ":counts";
    }

    /** Sorted set of blogIds the user read, or that were deleted, kept so late deliveries stay out. */
    public String marks(long userId) {
        return user(userId) + ":marks";
    }

    /** Hash authorId → ms: nothing of that author published at or before it is unread (read-all, trimming). */
    public String floors(long userId) {
        return user(userId) + ":floors";
    }

    /** The SCAN pattern matching every user's counts hash. */
    public String countsPattern() {
        return prefix + ":{u:*}:counts";
    }

    private String user(long userId) {
        return prefix + ":{u:" + userId + "}";
    }
}
