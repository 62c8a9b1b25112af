package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;

/** An event of {@code follow-events}, keyed by the author: the processor brings it together with the author's blog events. */
public sealed interface FollowEvent extends Event permits Followed, Unfollowed {

    long followerId();

    long authorId();

    @Override
    @JsonIgnore
    default String recordKey() {
        return Long.toString(authorId());
    }
}
