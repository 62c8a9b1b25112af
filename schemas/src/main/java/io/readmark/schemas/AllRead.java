package io.readmark.schemas;

import java.time.Instant;

/** {@code userId} read everything of every author published at or before {@code readAt}. */
public record AllRead(String eventId, long userId, Instant readAt) implements ReadEvent {

    public AllRead {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.present("readAt", readAt);
    }
}
