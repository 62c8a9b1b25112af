package io.readmark.view;

import io.readmark.store.MembershipHints;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The audiences each recently read user was in (besides everyone's), so their next counts read asks for those
 * audiences' read marks in its first round trip. Users in no audience take no room. Bounded: past
 * {@value #MAX_USERS} users the guesses start over, which costs only second round trips until they are learnt again.
 */
final class RecentMemberships implements MembershipHints {

    static final int MAX_USERS = 100_000;

    private final ConcurrentHashMap<Long, Set<String>> byUser = new ConcurrentHashMap<>();

    @Override
    public Set<String> audiences(long userId) {
        return byUser.getOrDefault(userId, Set.of());
    }

    @Override
    public void remember(long userId, Set<String> audiences) {
        if (audiences.isEmpty()) {
            byUser.remove(userId);
            return;
        }
        Set<String> known = byUser.get(userId);
        if (audiences.equals(known)) return; // the usual case: nothing to write
        if (known == null && byUser.size() >= MAX_USERS) byUser.clear();
        byUser.put(userId, Set.copyOf(audiences));
    }
}
