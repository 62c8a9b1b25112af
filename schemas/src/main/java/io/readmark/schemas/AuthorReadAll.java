package io.readmark.schemas;

import java.time.Instant;

/** {@code userId} read everything of {@code authorId} published at or before {@code readAt}. */
public record AuthorReadAll(String eventId, long userId, long authorId, Instant readAt) implements ReadEvent {

    public AuthorReadAll {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.positive("authorId", authorId);
        Validation.present("readAt", readAt);
    }
}
