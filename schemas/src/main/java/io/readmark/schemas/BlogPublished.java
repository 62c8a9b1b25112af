package io.readmark.schemas;

import java.time.Instant;

/** A new blog by {@code authorId}: unread for every current follower. */
public record BlogPublished(String eventId, long blogId, long authorId, Instant publishedAt) implements BlogEvent {

    public BlogPublished {
        Validation.eventId(eventId);
        Validation.positive("blogId", blogId);
        Validation.positive("authorId", authorId);
        Validation.present("publishedAt", publishedAt);
    }
}
