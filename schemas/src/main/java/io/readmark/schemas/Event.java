package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One event of the wire contract. {@code type} selects the record; every event carries a client-chosen
 * {@code eventId} and is keyed on its topic by {@link #recordKey()}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = BlogPublished.class, name = "BlogPublished"),
        @JsonSubTypes.Type(value = BlogDeleted.class, name = "BlogDeleted"),
        @JsonSubTypes.Type(value = Followed.class, name = "Followed"),
        @JsonSubTypes.Type(value = Unfollowed.class, name = "Unfollowed"),
        @JsonSubTypes.Type(value = BlogRead.class, name = "BlogRead"),
        @JsonSubTypes.Type(value = BlogsRead.class, name = "BlogsRead"),
        @JsonSubTypes.Type(value = AuthorReadAll.class, name = "AuthorReadAll"),
        @JsonSubTypes.Type(value = AllRead.class, name = "AllRead"),
        @JsonSubTypes.Type(value = InboxSeen.class, name = "InboxSeen"),
        @JsonSubTypes.Type(value = NoticeRead.class, name = "NoticeRead"),
        @JsonSubTypes.Type(value = NoticesAllRead.class, name = "NoticesAllRead"),
        @JsonSubTypes.Type(value = NoticePublished.class, name = "NoticePublished"),
        @JsonSubTypes.Type(value = NoticeWithdrawn.class, name = "NoticeWithdrawn"),
        @JsonSubTypes.Type(value = AudienceJoined.class, name = "AudienceJoined"),
        @JsonSubTypes.Type(value = AudienceLeft.class, name = "AudienceLeft"),
        @JsonSubTypes.Type(value = NoticeSent.class, name = "NoticeSent")
})
public sealed interface Event permits BlogEvent, FollowEvent, ReadEvent, NoticeEvent {

    /** The longest {@code eventId} the contract allows, in characters. */
    int MAX_EVENT_ID_LENGTH = 200;

    String eventId();

    /**
     * The Kafka record key (an id as a decimal string, or a notice's audience), so all events of one key stay in order
     * on one partition.
     */
    @JsonIgnore
    String recordKey();

    /** The wire name of this event type, as written in the {@code type} field. */
    @JsonIgnore
    default String typeName() {
        return getClass().getSimpleName();
    }
}
