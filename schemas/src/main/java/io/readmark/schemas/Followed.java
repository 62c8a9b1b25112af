package io.readmark.schemas;

import java.time.Instant;

/** {@code followerId} now follows {@code authorId}; later posts reach them (no backfill). */
public record Followed(String eventId, long followerId, long authorId, Instant at) implements FollowEvent {

    public Followed {
        Validation.eventId(eventId);
        Validation.positive("followerId", followerId);
        Validation.positive("authorId", authorId);
        Validation.present("at", at);
    }
}
