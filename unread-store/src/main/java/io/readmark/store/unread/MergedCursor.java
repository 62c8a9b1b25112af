package io.readmark.store.unread;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * The position after the last item of a page across authors: the item itself, since (publishedAt, authorId, blogId)
 * orders every unread blog of a user totally. Tagged apart from {@link PageCursor}, so one list's cursor is refused
 * by the other. Opaque to clients.
 */
final class MergedCursor {

    private static final String VERSION = "m1";

    private MergedCursor() {
    }

    static String encode(UnreadItem last) {
        String plain = VERSION + ":" + last.publishedAt().toEpochMilli() + ":" + last.authorId() + ":" + last.blogId();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws InvalidCursorException when the text is not a cursor this class wrote */
    static UnreadItem decode(String cursor) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(":", -1);
            if (parts.length == 4 && parts[0].equals(VERSION)) {
                long authorId = Long.parseLong(parts[2]);
                long blogId = Long.parseLong(parts[3]);
                // Only for non-negative ids does a merged member's byte order match their numeric order.
                if (authorId >= 0 && blogId >= 0) {
                    return new UnreadItem(blogId, authorId, Instant.ofEpochMilli(Long.parseLong(parts[1])));
                }
            }
        } catch (IllegalArgumentException e) {
            // reported below with one message for every malformed cursor
        }
        throw new InvalidCursorException();
    }
}
