package io.readmark.schemas;

import java.time.Instant;

/** {@code userId} read every notice, broadcast or targeted, published or sent at or before {@code readAt}. */
public record NoticesAllRead(String eventId, long userId, Instant readAt) implements ReadEvent {

    public NoticesAllRead {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.present("readAt", readAt);
    }
}
