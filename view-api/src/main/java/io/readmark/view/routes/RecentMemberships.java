package io.readmark.view.routes;

import io.readmark.store.notice.KnownReads;
import io.readmark.store.notice.MembershipHints;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each recently read user was found with: the audiences they were in (besides everyone's), so their next counts
 * read asks for those audiences' read marks in its first round trip, and the marks themselves, so it asks for none
 * while they did not change. Users with neither (no audience joined, no live notice) take no room. Bounded: past
 * {@value #MAX_USERS} users everything is forgotten, which costs only second round trips and marks asked for again
 * until they are learnt again. A user's entry holds at most 64 ids besides their audiences' names, so the whole is
 * bounded by {@value #MAX_USERS} such entries.
 */
final class RecentMemberships implements MembershipHints {

    static final int MAX_USERS = 100_000;

    private record Remembered(Set<String> audiences, KnownReads reads) {
    }

    private final ConcurrentHashMap<Long, Remembered> byUser = new ConcurrentHashMap<>();

    @Override
    public Set<String> audiences(long userId) {
        Remembered remembered = byUser.get(userId);
        return remembered == null ? Set.of() : remembered.audiences();
    }

    @Override
    public KnownReads reads(long userId) {
        Remembered remembered = byUser.get(userId);
        return remembered == null ? null : remembered.reads();
    }

    @Override
    public void remember(long userId, Set<String> audiences, KnownReads reads) {
        Remembered known = byUser.get(userId);
        if (audiences.isEmpty() && reads == null) {
            if (known != null) byUser.remove(userId);
            return;
        }
        // The usual case: the reader handed back what it found here, so nothing to write.
        if (known != null && known.reads() == reads && audiences.equals(known.audiences())) return;
        if (known == null && byUser.size() >= MAX_USERS) byUser.clear();
        byUser.put(userId, new Remembered(Set.copyOf(audiences), reads));
    }
}
