package io.readmark.schemas;

import java.time.Instant;

/** A blog was removed: it leaves every follower's unread. */
public record BlogDeleted(String eventId, long blogId, long authorId, Instant deletedAt) implements BlogEvent {

    public BlogDeleted {
        Validation.eventId(eventId);
        Validation.positive("blogId", blogId);
        Validation.positive("authorId", authorId);
        Validation.present("deletedAt", deletedAt);
    }
}
