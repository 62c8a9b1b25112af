package io.readmark.processor;

import io.readmark.processor.commit.ThreadChanges;
import io.readmark.store.unread.UnreadChanges;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Passes a topology's unread changes on to the real writers and counts the writes among them, so that a test on a
 * real Redis can show an event sent nothing. Each call is one write, however the writer groups it into scripts.
 */
final class CountingChanges implements ThreadChanges {

    /** What moves writes along without being one. */
    private static final Set<String> NOT_WRITES = Set.of("flush", "awaitUnansweredAtMost");

    private final ThreadChanges delegate;
    private final AtomicLong writes = new AtomicLong();
    private final Map<UnreadChanges, UnreadChanges> counted = new ConcurrentHashMap<>();

    CountingChanges(ThreadChanges delegate) {
        this.delegate = delegate;
    }

    @Override
    public UnreadChanges current() {
        return counted.computeIfAbsent(delegate.current(), this::counting);
    }

    /** The writes passed on so far. */
    long writes() {
        return writes.get();
    }

    private UnreadChanges counting(UnreadChanges target) {
        return (UnreadChanges) Proxy.newProxyInstance(UnreadChanges.class.getClassLoader(), new Class<?>[]{UnreadChanges.class},
                (proxy, method, args) -> {
                    if (!NOT_WRITES.contains(method.getName())) writes.incrementAndGet();
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
