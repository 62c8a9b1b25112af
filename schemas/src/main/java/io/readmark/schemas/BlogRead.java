package io.readmark.schemas;

import java.time.Instant;

/** {@code userId} read one blog. */
public record BlogRead(String eventId, long userId, long blogId, long authorId, Instant readAt) implements ReadEvent {

    public BlogRead {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.positive("blogId", blogId);
        Validation.positive("authorId", authorId);
        Validation.present("readAt", readAt);
    }
}
