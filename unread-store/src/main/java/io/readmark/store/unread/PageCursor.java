package io.readmark.store.unread;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The position after the last item of a page: its time in ms ({@code score}) and its id in decimal ({@code member}),
 * that is a blog's publication (whole seconds, as h's records keep it) and blogId in one author's list, a notice's time
 * and noticeId in the notice inbox. Pages continue strictly after it in newest-first order, so items arriving or being
 * read meanwhile cause no duplicates and no gaps. Opaque to clients.
 */
public record PageCursor(long score, String member) {

    private static final String VERSION = "v1";

    public String encode() {
        String plain = VERSION + ":" + score + ":" + member;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws InvalidCursorException when the text is not a cursor this class wrote */
    public static PageCursor decode(String cursor) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(":", 3);
            if (parts.length == 3 && parts[0].equals(VERSION) && !parts[2].isEmpty()) {
                return new PageCursor(Long.parseLong(parts[1]), parts[2]);
            }
        } catch (IllegalArgumentException e) {
            // reported below with one message for every malformed cursor
        }
        throw new InvalidCursorException();
    }

    /**
     * True when the entry comes after this cursor newest first: an earlier time, or the same time and an id before the
     * cursor's as text (ZREVRANGE's order, which the notice inbox's pages follow).
     */
    public boolean precedes(long entryScore, String entryMember) {
        return entryScore < score || (entryScore == score && entryMember.compareTo(member) < 0);
    }
}
