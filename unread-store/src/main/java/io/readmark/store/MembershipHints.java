package io.readmark.store;

import java.util.Set;

/**
 * The audiences a user was in when last read, kept by a reader to guess which audiences' read marks to ask for in
 * the first round trip. Only a guess: the memberships are read every time, and a wrong guess costs a second round
 * trip (an audience the user joined since) or a few ids asked for nothing (one they left).
 */
public interface MembershipHints {

    MembershipHints NONE = new MembershipHints() {
        @Override
        public Set<String> audiences(long userId) {
            return Set.of();
        }

        @Override
        public void remember(long userId, Set<String> audiences) {
        }
    };

    /** The joined audiences last seen, everyone's not included; empty when unknown. */
    Set<String> audiences(long userId);

    void remember(long userId, Set<String> audiences);
}
