package io.readmark.reliability;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link Workload} round after round on a thread of its own at a steady rate, until stopped, while faults
 * are injected elsewhere. The model is only read once the runner has stopped.
 */
public final class WorkloadRunner {

    private final Workload workload;
    private final long nanosPerEvent;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile Throwable failure;

    private WorkloadRunner(Workload workload, int eventsPerSecond) {
        this.workload = workload;
        this.nanosPerEvent = 1_000_000_000L / eventsPerSecond;
        this.thread = Thread.ofPlatform().name("workload").unstarted(this::run);
    }

    /** Starts producing at {@code eventsPerSecond}. */
    static WorkloadRunner start(Workload workload, int eventsPerSecond) {
        WorkloadRunner runner = new WorkloadRunner(workload, eventsPerSecond);
        runner.thread.start();
        return runner;
    }

    private void run() {
        long started = System.nanoTime();
        long startEvents = workload.eventsProduced();
        try {
            while (!stopping) {
                workload.round();
                long due = started + (workload.eventsProduced() - startEvents) * nanosPerEvent;
                long ahead = due - System.nanoTime();
                if (ahead > 0) LockSupport.parkNanos(ahead);
            }
            workload.flush();
        } catch (Throwable e) {
            failure = e;
        }
    }

    /** Records sent so far, duplicates included. */
    public long eventsProduced() {
        return workload.eventsProduced();
    }

    public boolean isRunning() {
        return thread.isAlive();
    }

    /**
     * Stops after the current round and waits until Kafka acknowledged everything sent.
     *
     * @throws IllegalStateException if the workload failed (a record Kafka did not store)
     */
    public void stop() {
        stopping = true;
        try {
            if (!thread.join(Duration.ofMinutes(2))) throw new IllegalStateException("the workload did not stop");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the workload", e);
        }
        if (failure != null) throw new IllegalStateException("the workload failed", failure);
    }
}
