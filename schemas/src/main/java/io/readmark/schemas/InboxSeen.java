package io.readmark.schemas;

import java.time.Instant;

/**
 * {@code userId} saw the inbox at {@code seenAt}: unread published at or before it stays unread but is no longer
 * unseen.
 */
public record InboxSeen(String eventId, long userId, Instant seenAt) implements ReadEvent {

    public InboxSeen {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.present("seenAt", seenAt);
    }
}
