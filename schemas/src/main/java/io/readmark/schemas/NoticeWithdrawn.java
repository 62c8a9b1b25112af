package io.readmark.schemas;

import java.time.Instant;

/** Notice {@code noticeId} of {@code audience} is withdrawn: unread for nobody from now on, even if its publish arrives later. */
public record NoticeWithdrawn(String eventId, long noticeId, String audience, Instant withdrawnAt) implements NoticeEvent.OfAudience {

    public NoticeWithdrawn {
        Validation.eventId(eventId);
        Validation.positive("noticeId", noticeId);
        Validation.audience(audience);
        Validation.present("withdrawnAt", withdrawnAt);
    }
}
