package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;

/** An event of {@code read-events}, keyed by the reading user. */
public sealed interface ReadEvent extends Event permits BlogRead, BlogsRead, AuthorReadAll, AllRead, InboxSeen,
        NoticeRead, NoticesAllRead {

    long userId();

    @Override
    @JsonIgnore
    default String recordKey() {
        return Long.toString(userId());
    }
}
