package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Notice {@code noticeId} is sent to exactly these users (write diffusion): it lands in each one's notice inbox, unread
 * until read. Keyed by the notice, so a re-sent notice stays in order with its first sending.
 */
public record NoticeSent(String eventId, long noticeId, List<Long> recipientIds, Instant sentAt) implements NoticeEvent {

    /** More recipients than one record of at most {@link Topics#MAX_EVENT_BYTES} can hold. */
    public static final int MAX_RECIPIENTS = 10_000;

    public NoticeSent {
        Validation.eventId(eventId);
        Validation.positive("noticeId", noticeId);
        Validation.present("sentAt", sentAt);
        Validation.sized("recipientIds", recipientIds, MAX_RECIPIENTS, "recipient");
        Set<Long> distinct = new HashSet<>();
        for (Long recipient : recipientIds) {
            // Each one names a user whose keys the worker writes.
            if (recipient == null || recipient <= 0) {
                throw new InvalidEventException("recipientIds", "must hold positive 64-bit integers only, had " + recipient);
            }
            if (!distinct.add(recipient)) {
                throw new InvalidEventException("recipientIds", "must be distinct, had " + recipient + " twice");
            }
        }
        recipientIds = List.copyOf(recipientIds);
    }

    @Override
    @JsonIgnore
    public String recordKey() {
        return Long.toString(noticeId);
    }
}
