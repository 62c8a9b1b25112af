package io.readmark.store.notice;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** Keeps the last of everything a reader found, as the view API's hints do, without a bound. */
public final class KeepingHints implements MembershipHints {

    private final Map<Long, Set<String>> audiences = new HashMap<>();
    private final Map<Long, KnownReads> reads = new HashMap<>();

    @Override
    public synchronized Set<String> audiences(long userId) {
        return audiences.getOrDefault(userId, Set.of());
    }

    @Override
    public synchronized KnownReads reads(long userId) {
        return reads.get(userId);
    }

    @Override
    public synchronized void remember(long userId, Set<String> joined, KnownReads known) {
        audiences.put(userId, Set.copyOf(joined));
        if (known == null) reads.remove(userId); else reads.put(userId, known);
    }
}
