package io.readmark.processor.commit;

import io.readmark.store.UnreadWrites;

/**
 * Where a processor's unread changes go: the calling stream thread's own {@link UnreadWrites}, shared by that thread's
 * tasks. {@link ThreadWriters} pipelines them to Redis; a topology test can record them instead.
 */
@FunctionalInterface
public interface ThreadWrites {

    /** The calling thread's writes; the same object on every call from one thread. */
    UnreadWrites current();
}
