package io.readmark.store.unread;

import io.lettuce.core.cluster.SlotHash;

import java.nio.charset.StandardCharsets;

/**
 * Names of one user's Redis keys. Every key carries the user's hash tag {@code {u:<userId>}}, so all keys a script
 * touches live in one Redis Cluster slot; names are built here and passed to scripts in KEYS, never built in Lua.
 */
public final class UnreadKeys {

    public static final String DEFAULT_PREFIX = "rm";

    private static final byte[] Z = ascii("}:z");
    private static final byte[] H = ascii("}:h");
    private static final byte[] UNREAD = ascii("}:unread:");
    private static final byte[] COUNTS = ascii("}:counts");
    private static final byte[] MARKS = ascii("}:marks");
    private static final byte[] FLOORS = ascii("}:floors");
    private static final byte[] MERGED = ascii("}:merged");
    private static final byte[] LIVE = ascii("}:live");
    private static final byte[] CHANGES = ascii("}:changes");
    private static final long NO_AUTHOR = -1;

    private final String prefix;
    private final byte[] userTagStart; // "<prefix>:{u:" in UTF-8

    public UnreadKeys(String prefix) {
        if (prefix == null || prefix.isBlank() || prefix.contains("{") || prefix.contains("}")) {
            throw new IllegalArgumentException("Redis key prefix must be non-empty and free of braces, was '" + prefix + "'");
        }
        this.prefix = prefix;
        this.userTagStart = (prefix + ":{u:").getBytes(StandardCharsets.UTF_8);
    }

    public String prefix() {
        return prefix;
    }

    /**
     * The Redis Cluster slot of every key of the user: that of its hash tag's text {@code u:<userId>}, whatever the
     * prefix. Users of one slot may share a script.
     */
    public static int slot(long userId) {
        return SlotHash.getSlot(("u:" + userId).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Sorted set of the user's unread blogs across authors, member blogId, score minus the second it was published;
     * and of tombstones, blogs read or deleted, scored (> 0) the second of that plus one (see counters.lua).
     */
    public String z(long userId) {
        return user(userId) + ":z";
    }

    /**
     * Hash of the user's unread entries per author (field authorId, the entries as records) and their counts: field
     * {@code total}, {@code seen}, {@code notices} and the state version {@code v} (see counters.lua).
     */
    public String h(long userId) {
        return user(userId) + ":h";
    }

    // The keys of the layout before z and h, which `readmark migrate` converts from.

    /** Sorted set of the user's unread blogs by one author: member blogId, score publishedAt in ms. */
    public String unread(long userId, long authorId) {
        return user(userId) + ":unread:" + authorId;
    }

    /**
     * Hash of the user's unread counts: field authorId, field {@code total} and field {@code seen} (how many unread
     * entries were published at or before the seen watermark).
     */
    public String counts(long userId) {
        return user(userId) + ":counts";
    }

    /** Sorted set of blogIds the user read, or that were deleted, kept so late deliveries stay out. */
    public String marks(long userId) {
        return user(userId) + ":marks";
    }

    /**
     * Hash authorId → ms: nothing of that author published at or before it is unread (read-all, trimming); field
     * {@code all} → the same for every author (all-read); field {@code seen} → the seen watermark (inbox seen).
     */
    public String floors(long userId) {
        return user(userId) + ":floors";
    }

    /**
     * Sorted set of every unread blog of the user once more, across authors: member authorId‖blogId as 16 big-endian
     * bytes, score publishedAt in ms.
     */
    public String merged(long userId) {
        return user(userId) + ":merged";
    }

    /** A string with a TTL, present while a view API has a change stream of the user open: scripts publish only then. */
    public String live(long userId) {
        return user(userId) + ":live";
    }

    /** The Pub/Sub channel scripts publish the user's changes on; it carries the user's hash tag, as keys do. */
    public String changes(long userId) {
        return user(userId) + ":changes";
    }

    private String user(long userId) {
        return prefix + ":{u:" + userId + "}";
    }

    // Finding keys again (reconcile): SCAN patterns and the ids in a key name. Only canonical names are this prefix's
    // keys, the ones the methods above build for positive ids; anything else that matches a pattern is not.

    /** The SCAN MATCH pattern of every user's h hash under this prefix. */
    public String hPattern() {
        return glob(prefix) + ":{u:*}:h";
    }

    /** The SCAN MATCH pattern of every user's z set under this prefix. */
    public String zPattern() {
        return glob(prefix) + ":{u:*}:z";
    }

    /** The user of a z key, or -1 when the key is not one of this prefix. */
    public long userOfZ(String key) {
        return userOf(key, "}:z");
    }

    /** The user of an h key, or -1 when the key is not one of this prefix. */
    public long userOfH(String key) {
        return userOf(key, "}:h");
    }

    /** The SCAN MATCH pattern of every user's counts hash under this prefix. */
    public String countsPattern() {
        return glob(prefix) + ":{u:*}:counts";
    }

    /** The SCAN MATCH pattern of every user's unread sets under this prefix. */
    public String unreadPattern() {
        return glob(prefix) + ":{u:*}:unread:*";
    }

    /** The SCAN MATCH pattern of every user's merged index under this prefix. */
    public String mergedPattern() {
        return glob(prefix) + ":{u:*}:merged";
    }

    /** The SCAN MATCH pattern of every user's marks under this prefix. */
    public String marksPattern() {
        return glob(prefix) + ":{u:*}:marks";
    }

    /** The user of a marks key, or -1 when the key is not one of this prefix. */
    public long userOfMarks(String key) {
        return userOf(key, "}:marks");
    }

    /** The SCAN MATCH pattern of every user's floors hash under this prefix. */
    public String floorsPattern() {
        return glob(prefix) + ":{u:*}:floors";
    }

    /** The user of a floors key, or -1 when the key is not one of this prefix. */
    public long userOfFloors(String key) {
        return userOf(key, "}:floors");
    }

    /** The user of a counts key, or -1 when the key is not a counts key of this prefix. */
    public long userOfCounts(String key) {
        return userOf(key, "}:counts");
    }

    /** The user of a merged index key, or -1 when the key is not one of this prefix. */
    public long userOfMerged(String key) {
        return userOf(key, "}:merged");
    }

    private long userOf(String key, String end) {
        String start = prefix + ":{u:";
        if (!key.startsWith(start) || !key.endsWith(end) || key.length() <= start.length() + end.length()) return -1;
        return id(key.substring(start.length(), key.length() - end.length()));
    }

    /** The user and author of an unread key of this prefix. */
    public record UnreadKey(long userId, long authorId) {
    }

    /** The user and author of an unread key, or null when the key is not an unread key of this prefix. */
    public UnreadKey parseUnread(String key) {
        String start = prefix + ":{u:";
        String middle = "}:unread:";
        if (!key.startsWith(start)) return null;
        int at = key.indexOf(middle, start.length());
        if (at < 0) return null;
        long user = id(key.substring(start.length(), at));
        long author = id(key.substring(at + middle.length()));
        return user < 0 || author < 0 ? null : new UnreadKey(user, author);
    }

    /** A positive id in the canonical decimal form the writers use, or -1. */
    public static long id(String text) {
        if (text.isEmpty() || text.length() > 19 || text.charAt(0) == '0') return -1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') return -1;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1; // 19 digits above Long.MAX_VALUE
        }
    }

    /**
     * The user whose hash tag {@code {u:<userId>}} a key carries, or -1 for a key without one, such as an audience's
     * notice keys. The tag is what Redis hashes, between the first '{' and the next '}' (a prefix has no braces);
     * the id is read as {@link #id} reads one, without building a String.
     */
    public static long userOfTag(byte[] key) {
        int open = indexOf(key, (byte) '{', 0);
        int close = open < 0 ? -1 : indexOf(key, (byte) '}', open + 1);
        int start = open + 3;
        if (close < start + 1 || key[open + 1] != 'u' || key[open + 2] != ':') return -1;
        if (close - start > 19 || key[start] == '0') return -1;
        long value = 0;
        for (int i = start; i < close; i++) {
            int digit = key[i] - '0';
            if (digit < 0 || digit > 9 || value > (Long.MAX_VALUE - digit) / 10) return -1;
            value = value * 10 + digit;
        }
        return value;
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) return i;
        }
        return -1;
    }

    /** The text as a glob that matches only itself: SCAN MATCH treats *, ?, [, ] and \ as special. */
    private static String glob(String text) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            if ("*?[]\\".indexOf(c) >= 0) escaped.append('\\');
            escaped.append(c);
        }
        return escaped.toString();
    }

    // The same names as UTF-8 bytes for the writer's hot path: one array each, no intermediate Strings. Ids are
    // positive by contract; anything else takes the String route so the name is still exactly the same.

    public byte[] zBytes(long userId) {
        return userId < 0 ? utf8(z(userId)) : userKey(userId, Z, NO_AUTHOR);
    }

    public byte[] hBytes(long userId) {
        return userId < 0 ? utf8(h(userId)) : userKey(userId, H, NO_AUTHOR);
    }

    public byte[] unreadBytes(long userId, long authorId) {
        if (userId < 0 || authorId < 0) return utf8(unread(userId, authorId));
        return userKey(userId, UNREAD, authorId);
    }

    public byte[] countsBytes(long userId) {
        return userId < 0 ? utf8(counts(userId)) : userKey(userId, COUNTS, NO_AUTHOR);
    }

    public byte[] marksBytes(long userId) {
        return userId < 0 ? utf8(marks(userId)) : userKey(userId, MARKS, NO_AUTHOR);
    }

    public byte[] floorsBytes(long userId) {
        return userId < 0 ? utf8(floors(userId)) : userKey(userId, FLOORS, NO_AUTHOR);
    }

    public byte[] mergedBytes(long userId) {
        return userId < 0 ? utf8(merged(userId)) : userKey(userId, MERGED, NO_AUTHOR);
    }

    public byte[] liveBytes(long userId) {
        return userId < 0 ? utf8(live(userId)) : userKey(userId, LIVE, NO_AUTHOR);
    }

    public byte[] changesBytes(long userId) {
        return userId < 0 ? utf8(changes(userId)) : userKey(userId, CHANGES, NO_AUTHOR);
    }

    /** {@code Long.toString(value)} as ASCII bytes, without the String. */
    public static byte[] decimal(long value) {
        if (value < 0) return ascii(Long.toString(value));
        byte[] digits = new byte[digitCount(value)];
        writeDigits(digits, digits.length, value);
        return digits;
    }

    /** userTagStart + userId + suffix [+ authorId], for non-negative ids. */
    private byte[] userKey(long userId, byte[] suffix, long authorId) {
        int userDigits = digitCount(userId);
        int authorDigits = authorId == NO_AUTHOR ? 0 : digitCount(authorId);
        byte[] key = new byte[userTagStart.length + userDigits + suffix.length + authorDigits];
        System.arraycopy(userTagStart, 0, key, 0, userTagStart.length);
        int end = userTagStart.length + userDigits;
        writeDigits(key, end, userId);
        System.arraycopy(suffix, 0, key, end, suffix.length);
        if (authorId != NO_AUTHOR) writeDigits(key, key.length, authorId);
        return key;
    }

    private static int digitCount(long value) {
        int count = 1;
        while (value >= 10) {
            value /= 10;
            count++;
        }
        return count;
    }

    /** Writes the decimal digits of a non-negative value so that the last one lands at {@code end - 1}. */
    private static void writeDigits(byte[] target, int end, long value) {
        int i = end;
        do {
            target[--i] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value != 0);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
