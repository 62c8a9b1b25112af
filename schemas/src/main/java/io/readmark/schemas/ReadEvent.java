package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;

/** An event of {@code read-events}, keyed by the reading user. */
public sealed interface ReadEvent extends Event permits BlogRead, AuthorReadAll {

    long userId();

    long authorId();

    @Override
    @JsonIgnore
    default long recordKey() {
        return userId();
    }
}
