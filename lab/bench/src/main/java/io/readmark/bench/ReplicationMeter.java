package io.readmark.bench;

import io.readmark.store.redis.RedisConnections;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Replication during one window: how far the replica trailed its master, the CPU the replica took, and the
 * {@code WAIT}s the master answered. The lag is sampled every {@value #SAMPLE_MILLIS} ms on connections of the meter's
 * own: the master's replication offset, then the replica's. Their difference is what a failover at that moment would
 * lose of writes not waited for; read one after the other, it errs low.
 */
final class ReplicationMeter implements AutoCloseable {

    /** The replication of one window. */
    record Replication(double seconds, long maxLagBytes, double meanLagBytes, double replicaCores, long waitCalls,
                       long waitMicros) {

        double waitsPerSecond() {
            return waitCalls / seconds;
        }
    }

    private static final long SAMPLE_MILLIS = 10;
    private static final String WAIT = "wait";

    private final RedisStats master;
    private final RedisStats replica;
    private final long startNanos = System.nanoTime();
    private final long waitCallsStart;
    private final long waitMicrosStart;
    private final double replicaCpuStart;
    private final Thread sampler;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean sampling = true;
    private long maxLag, lagSum, samples; // the sampler's; read after it joined

    private ReplicationMeter(RedisConnections masterRedis, RedisConnections replicaRedis) {
        this.master = new RedisStats(masterRedis);
        this.replica = new RedisStats(replicaRedis);
        this.waitCallsStart = master.calls(WAIT);
        this.waitMicrosStart = master.commandMicros(List.of(WAIT));
        this.replicaCpuStart = replica.cpuSeconds();
        this.sampler = Thread.ofPlatform().name("replica-lag").daemon().start(this::sample);
    }

    static ReplicationMeter start(RedisConnections master, RedisConnections replica) {
        return new ReplicationMeter(master, replica);
    }

    private void sample() {
        try {
            while (sampling) {
                long lag = Math.max(0, master.replicationOffset() - replica.replicationOffset());
                maxLag = Math.max(maxLag, lag);
                lagSum += lag;
                samples++;
                LockSupport.parkNanos(Duration.ofMillis(SAMPLE_MILLIS).toNanos());
            }
        } catch (RuntimeException e) {
            failure.set(e);
        }
    }

    /** Stops sampling and returns the window's replication. */
    Replication stop() throws InterruptedException {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        endSampling();
        if (failure.get() != null) throw new IllegalStateException("sampling the replica's lag failed", failure.get());
        return new Replication(seconds, maxLag, samples == 0 ? 0 : (double) lagSum / samples,
                (replica.cpuSeconds() - replicaCpuStart) / seconds, master.calls(WAIT) - waitCallsStart,
                master.commandMicros(List.of(WAIT)) - waitMicrosStart);
    }

    private void endSampling() throws InterruptedException {
        sampling = false;
        sampler.join();
    }

    @Override
    public void close() throws InterruptedException {
        endSampling();
        master.close();
        replica.close();
    }
}
