package io.readmark.processor;

/**
 * Counts the offset commits of each stream thread. Kafka Streams flushes its producer before it commits offsets,
 * so everything a thread forwarded before the commit counted as {@code n} is durable once {@link #current()}
 * exceeds {@code n}. That is how a big fan-out knows which of its chunks can no longer be lost.
 */
public final class ThreadCommits {

    private final ThreadLocal<long[]> perThread = ThreadLocal.withInitial(() -> new long[1]);

    /** Called by the committing thread once its offsets are committed. */
    void committed() {
        perThread.get()[0]++;
    }

    /** Commits of the calling thread so far. */
    long current() {
        return perThread.get()[0];
    }
}
