package io.readmark.processor.commit;

/**
 * Counts the commits of each stream thread, each at its first step: Kafka Streams flushes the thread's producer
 * before it commits offsets ({@link RedisFirstClientSupplier}), and once that flush returned, every record the
 * thread forwarded before it has been acknowledged by Kafka. So everything a thread forwarded while
 * {@link #current()} was {@code n} is durable once {@link #current()} exceeds {@code n}. That is how a big fan-out
 * knows which of its chunks can no longer be lost.
 */
public final class ThreadCommits {

    private final ThreadLocal<long[]> perThread = ThreadLocal.withInitial(() -> new long[1]);

    /** Called by a stream thread once its producer's flush returned. */
    public void flushed() {
        perThread.get()[0]++;
    }

    /** Commit flushes of the calling thread so far. */
    public long current() {
        return perThread.get()[0];
    }
}
