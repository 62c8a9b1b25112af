package io.readmark.schemas;

import java.time.Instant;

/** {@code userId} read notice {@code noticeId}, broadcast or targeted; it stays read even if it arrives later. */
public record NoticeRead(String eventId, long userId, long noticeId, Instant readAt) implements ReadEvent {

    public NoticeRead {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.positive("noticeId", noticeId);
        Validation.present("readAt", readAt);
    }
}
