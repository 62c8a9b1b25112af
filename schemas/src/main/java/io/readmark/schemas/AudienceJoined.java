package io.readmark.schemas;

import java.time.Instant;

/** {@code userId} became a member of {@code audience} at {@code at}: its notices published after then concern them. */
public record AudienceJoined(String eventId, long userId, String audience, Instant at) implements NoticeEvent.OfAudience {

    public AudienceJoined {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.joinable(audience);
        Validation.present("at", at);
    }
}
