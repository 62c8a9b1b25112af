package io.readmark.processor.commit;

import io.lettuce.core.RedisConnectionException;
import io.readmark.store.reconcile.LayoutUpgradeGuard;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisRetry;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;
import io.readmark.store.unread.WriteGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

/**
 * One pipelined {@link UnreadWriter} per stream thread, shared by that thread's tasks. The producer flush that
 * precedes every offset commit awaits the flushing thread's own writer first ({@link #awaitCurrentThread()},
 * {@link RedisFirstClientSupplier}), so no offset is committed ahead of Redis, nor, when asked, ahead of its replicas.
 * During a layout upgrade each writer has a {@link LayoutUpgradeGuard} of its own, used by its thread alone.
 */
public final class WriterPerThread implements ThreadChanges, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WriterPerThread.class);

    private final RedisConnections redis;
    private final UnreadKeys keys;
    private final UnreadLimits limits;
    private final int maxPendingWrites;
    private final LongConsumer deliveriesApplied;
    private final LongConsumer writesRetried;
    private final int waitReplicas;
    private final boolean layoutUpgrade;
    private final ThreadLocal<UnreadWriter> perThread = new ThreadLocal<>();
    private final Set<UnreadWriter> all = ConcurrentHashMap.newKeySet();

    /**
     * @param deliveriesApplied told how many deliveries Redis acknowledged, from whichever stream thread awaited them
     */
    public WriterPerThread(RedisConnections redis, UnreadKeys keys, UnreadLimits limits, int maxPendingWrites,
                         LongConsumer deliveriesApplied) {
        this(redis, keys, limits, maxPendingWrites, deliveriesApplied, retried -> { }, 0, false);
    }

    /**
     * @param writesRetried told how many writes a writer sends again after Redis failed them
     * @param waitReplicas  how many replicas of each master must have a thread's writes before its flush returns
     * @param layoutUpgrade whether each writer converts a user of the layout before z and h before writing to them
     */
    public WriterPerThread(RedisConnections redis, UnreadKeys keys, UnreadLimits limits, int maxPendingWrites,
                         LongConsumer deliveriesApplied, LongConsumer writesRetried, int waitReplicas, boolean layoutUpgrade) {
        this.redis = redis;
        this.keys = keys;
        this.limits = limits;
        this.maxPendingWrites = maxPendingWrites;
        this.deliveriesApplied = deliveriesApplied;
        this.writesRetried = writesRetried;
        this.waitReplicas = waitReplicas;
        this.layoutUpgrade = layoutUpgrade;
    }

    @Override
    public UnreadWriter current() {
        UnreadWriter writer = perThread.get();
        if (writer == null) {
            WriteGuard guard = layoutUpgrade ? new LayoutUpgradeGuard(redis, keys, limits) : WriteGuard.NONE;
            writer = new UnreadWriter(openConnection(), keys, limits, maxPendingWrites, deliveriesApplied, writesRetried,
                    waitReplicas, guard);
            perThread.set(writer);
            all.add(writer);
        }
        return writer;
    }

    /**
     * A thread that gets its first record while Redis is down (a new or replaced thread, a task moved here) waits for
     * Redis like a write would, instead of failing the thread again and again.
     */
    private RedisConnections.BinaryConnection openConnection() {
        Duration backoff = RedisRetry.FIRST;
        for (int attempt = 1; ; attempt++) {
            try {
                RedisConnections.BinaryConnection connection = redis.openBinary();
                if (attempt > 1) log.info("Redis connection for this stream thread opened after {} attempts", attempt);
                return connection;
            } catch (RedisConnectionException e) {
                log.atWarn().addKeyValue("error", e.toString()).addKeyValue("retryInMs", backoff.toMillis())
                        .log("cannot connect to Redis, retrying");
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while connecting to Redis", interrupted);
                }
                backoff = RedisRetry.after(backoff);
            }
        }
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
