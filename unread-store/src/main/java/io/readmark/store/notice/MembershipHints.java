package io.readmark.store.notice;

import java.util.Set;

/**
 * What a reader keeps of each user between counts reads: the audiences they were in, to guess which audiences' read
 * marks to ask for in the first round trip, and the read marks it was answered, to ask for none while they did not
 * change ({@link KnownReads}). Only a guess and a stamped copy: the memberships and the stamp are read every time; a
 * wrong guess costs a second round trip (an audience the user joined since) or a few ids asked for nothing (one they
 * left), and a changed stamp costs asking Redis again.
 */
public interface MembershipHints {

    MembershipHints NONE = new MembershipHints() {
        @Override
        public Set<String> audiences(long userId) {
            return Set.of();
        }

        @Override
        public KnownReads reads(long userId) {
            return null;
        }

        @Override
        public void remember(long userId, Set<String> audiences, KnownReads reads) {
        }
    };

    /** The joined audiences last seen, everyone's not included; empty when unknown. */
    Set<String> audiences(long userId);

    /** The read marks last read; null when unknown. */
    KnownReads reads(long userId);

    /** What a read found: the joined audiences, and the read marks it was answered (null for none to keep). */
    void remember(long userId, Set<String> audiences, KnownReads reads);
}
