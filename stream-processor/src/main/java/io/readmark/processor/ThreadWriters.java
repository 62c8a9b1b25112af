package io.readmark.processor;

import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import io.readmark.store.UnreadLimits;
import io.readmark.store.UnreadWriter;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

/**
 * One pipelined {@link UnreadWriter} per stream thread, shared by that thread's tasks. The thread that commits
 * offsets awaits its own writer first ({@link #awaitCurrentThread()}), so no offset is committed ahead of Redis.
 */
public final class ThreadWriters implements AutoCloseable {

    private final RedisConnections redis;
    private final UnreadKeys keys;
    private final UnreadLimits limits;
    private final int maxPendingWrites;
    private final LongConsumer deliveriesApplied;
    private final ThreadLocal<UnreadWriter> perThread = new ThreadLocal<>();
    private final Set<UnreadWriter> all = ConcurrentHashMap.newKeySet();

    /**
     * @param deliveriesApplied told how many deliveries Redis acknowledged, from whichever stream thread awaited them
     */
    public ThreadWriters(RedisConnections redis, UnreadKeys keys, UnreadLimits limits, int maxPendingWrites,
                         LongConsumer deliveriesApplied) {
        this.redis = redis;
        this.keys = keys;
        this.limits = limits;
        this.maxPendingWrites = maxPendingWrites;
        this.deliveriesApplied = deliveriesApplied;
    }

    UnreadWriter current() {
        UnreadWriter writer = perThread.get();
        if (writer == null) {
            writer = new UnreadWriter(redis.openBinary(), keys, limits, maxPendingWrites, deliveriesApplied);
            perThread.set(writer);
            all.add(writer);
        }
        return writer;
    }

    /** Blocks until Redis acknowledged every write this thread submitted. */
    public void awaitCurrentThread() {
        UnreadWriter writer = perThread.get();
        if (writer != null) writer.awaitAcknowledged();
    }

    @Override
    public void close() {
        all.forEach(UnreadWriter::close);
        all.clear();
    }
}
