package io.readmark.schemas;

import java.time.Instant;

/** {@code userId} stopped being a member of {@code audience} at {@code at}: none of its notices concern them any more. */
public record AudienceLeft(String eventId, long userId, String audience, Instant at) implements NoticeEvent.OfAudience {

    public AudienceLeft {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.joinable(audience);
        Validation.present("at", at);
    }
}
