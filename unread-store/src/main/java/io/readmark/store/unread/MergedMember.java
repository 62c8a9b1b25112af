package io.readmark.store.unread;

import java.time.Instant;
import java.util.HexFormat;

/**
 * The member of a user's merged index ({@link UnreadKeys#merged}): authorId then blogId, each as 8 big-endian bytes.
 * Ids are non-negative longs (positive by contract), so Redis's byte order of members is the ids' numeric order, and
 * ZREVRANGE over equal scores lists (authorId, blogId) descending — the order of {@link UnreadItem#NEWEST_FIRST}. Scripts that have only decimal
 * ids build the same bytes themselves ({@code members.lua}); replies to the reader carry members as hex.
 */
public final class MergedMember {

    static final int BYTES = 16;
    private static final HexFormat HEX = HexFormat.of();

    private MergedMember() {
    }

    /** The member of one unread entry. */
    public static byte[] of(long authorId, long blogId) {
        byte[] member = new byte[BYTES];
        write(member, 0, authorId);
        write(member, 8, blogId);
        return member;
    }

    /** The 8 bytes every merged member of the author starts with. */
    static byte[] authorPrefix(long authorId) {
        byte[] prefix = new byte[8];
        write(prefix, 0, authorId);
        return prefix;
    }

    /** The member as 32 hex digits, the way the page script takes a cursor. */
    static String hex(long authorId, long blogId) {
        return HEX.formatHex(of(authorId, blogId));
    }

    /** The item a member in hex (as {@code merged_page.lua} answers) and its score stand for. */
    static UnreadItem item(String hex, String score) {
        if (hex.length() != 2 * BYTES) {
            throw new IllegalStateException("merged index member of " + hex.length() / 2 + " bytes, expected " + BYTES);
        }
        long authorId = HEX.fromHexDigitsToLong(hex, 0, 16);
        long blogId = HEX.fromHexDigitsToLong(hex, 16, 32);
        return new UnreadItem(blogId, authorId, Instant.ofEpochMilli((long) Double.parseDouble(score)));
    }

    /** An author id from the 16 hex digits of its prefix, as {@code check.lua} names authors it was not given. */
    public static long authorOfHex(String hex) {
        return HEX.fromHexDigitsToLong(hex);
    }

    private static void write(byte[] target, int offset, long value) {
        for (int i = 7; i >= 0; i--) {
            target[offset + i] = (byte) value;
            value >>>= 8;
        }
    }
}
