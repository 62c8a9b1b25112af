package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * An event of {@code notice-events}. Broadcast notices and memberships are keyed by the audience, so an audience's
 * notices and its members' joins stay in order; a targeted notice is keyed by its noticeId.
 */
public sealed interface NoticeEvent extends Event permits NoticeEvent.OfAudience, NoticeSent {

    /** The audience every user belongs to without joining it. */
    String EVERYONE = "everyone";

    /** An event of one audience: a notice to all its members, or a change of its members. */
    sealed interface OfAudience extends NoticeEvent permits NoticePublished, NoticeWithdrawn, AudienceJoined, AudienceLeft {

        String audience();

        @Override
        @JsonIgnore
        default String recordKey() {
            return audience();
        }
    }
}
