package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;

/**
 * Notice {@code noticeId} is published to every member of {@code audience}: stored once, unread for each member who joined
 * before {@code publishedAt}, until read, withdrawn or, when {@code expiresAt} is given, expired.
 */
public record NoticePublished(String eventId, long noticeId, String audience, Instant publishedAt,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Instant expiresAt) implements NoticeEvent.OfAudience {

    public NoticePublished {
        Validation.eventId(eventId);
        Validation.positive("noticeId", noticeId);
        Validation.audience(audience);
        Validation.present("publishedAt", publishedAt);
        if (expiresAt != null && !expiresAt.isAfter(publishedAt)) {
            throw new InvalidEventException("expiresAt", "must be after publishedAt");
        }
    }

    /**
     * From JSON: through a plain holder, because the mapper refuses a record whose creator property is absent and
     * {@code expiresAt} is optional. The constructor checks the fields as it does for code.
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static NoticePublished fromJson(Fields json) {
        Validation.present("noticeId", json.noticeId);
        return new NoticePublished(json.eventId, json.noticeId, json.audience, json.publishedAt, json.expiresAt);
    }

    /** The fields as they come from JSON, each possibly absent. */
    static final class Fields {
        public String eventId;
        public Long noticeId;
        public String audience;
        public Instant publishedAt;
        public Instant expiresAt;
    }

    /** A notice without an expiry. */
    public NoticePublished(String eventId, long noticeId, String audience, Instant publishedAt) {
        this(eventId, noticeId, audience, publishedAt, null);
    }
}
