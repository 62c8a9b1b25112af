package io.readmark.processor.commit;

import io.readmark.store.unread.UnreadChanges;

/**
 * Where a processor's unread changes go: the calling stream thread's own {@link UnreadChanges}, shared by that thread's
 * tasks. {@link WriterPerThread} pipelines them to Redis; a topology test can record them instead.
 */
@FunctionalInterface
public interface ThreadChanges {

    /** The calling thread's writes; the same object on every call from one thread. */
    UnreadChanges current();
}
