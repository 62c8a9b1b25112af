package io.readmark.schemas;

import java.time.Instant;

/** {@code followerId} stopped following {@code authorId}; that author's unread is dropped for them. */
public record Unfollowed(String eventId, long followerId, long authorId, Instant at) implements FollowEvent {

    public Unfollowed {
        Validation.eventId(eventId);
        Validation.positive("followerId", followerId);
        Validation.positive("authorId", authorId);
        Validation.present("at", at);
    }
}
