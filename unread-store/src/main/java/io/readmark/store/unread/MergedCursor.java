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
    /** A page of the layout before z and h issued it ({@link PreviousLayoutReads}): ordered by millisecond there. */
    private static final String PREVIOUS_VERSION = "m0";

    private MergedCursor() {
    }

    /** Carries the authorId too, which the order ignores: cursors already issued have it, and still decode. */
    static String encode(UnreadItem last) {
        return encode(VERSION, last);
    }

    static String encodePrevious(UnreadItem last) {
        return encode(PREVIOUS_VERSION, last);
    }

    private static String encode(String version, UnreadItem last) {
        String plain = version + ":" + last.publishedAt().toEpochMilli() + ":" + last.authorId() + ":" + last.blogId();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /** A cursor read: the item a page ended at, and whether a page of the previous layout issued it. */
    record After(UnreadItem item, boolean previousLayout) {

        /**
         * Where a page of z continues: after the item, or for the previous layout's cursor at the start of its second,
         * since that layout ordered a second's entries by millisecond: entries may come again, none is skipped.
         */
        UnreadItem onCurrentLayout() {
            return previousLayout ? new UnreadItem(0, item.authorId(), Instant.ofEpochSecond(EntryRecord.second(item.publishedAt().toEpochMilli())))
                    : item;
        }
    }

    /** @throws InvalidCursorException when the text is not a cursor this class wrote */
    static After decode(String cursor) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(":", -1);
            if (parts.length == 4 && (parts[0].equals(VERSION) || parts[0].equals(PREVIOUS_VERSION))) {
                long authorId = Long.parseLong(parts[2]);
                long blogId = Long.parseLong(parts[3]);
                // Ids are non-negative (members.lua): anything else is no cursor this class wrote.
                if (authorId >= 0 && blogId >= 0) {
                    return new After(new UnreadItem(blogId, authorId, Instant.ofEpochMilli(Long.parseLong(parts[1]))),
                            parts[0].equals(PREVIOUS_VERSION));
                }
            }
        } catch (IllegalArgumentException e) {
            // reported below with one message for every malformed cursor
        }
        throw new InvalidCursorException();
    }
}
