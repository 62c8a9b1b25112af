package io.readmark.store.unread;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * The position after the last item of a page across authors: the item itself, since its second and blogId order every
 * unread blog of a user totally ({@link UnreadItem#NEWEST_FIRST}, merged_page.lua). Tagged apart from
 * {@link PageCursor}, so one list's cursor is refused by the other. Opaque to clients.
 */
final class MergedCursor {

    private static final String VERSION = "m1";

    private MergedCursor() {
    }

    /** Carries the authorId too, which the order ignores: cursors already issued have it, and still decode. */
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
                // Ids are non-negative (members.lua): anything else is no cursor this class wrote.
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
