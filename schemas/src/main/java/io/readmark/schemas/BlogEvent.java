package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;

/** An event of {@code blog-events}, keyed by the author. */
public sealed interface BlogEvent extends Event permits BlogPublished, BlogDeleted {

    long blogId();

    long authorId();

    @Override
    @JsonIgnore
    default String recordKey() {
        return Long.toString(authorId());
    }
}
