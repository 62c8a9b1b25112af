package io.readmark.reliability;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Injects faults one at a time on a thread of its own, each about every period it is given (±25 %, seeded), until
 * stopped. One at a time: each fault restores the system before the next begins, so every fault is one the
 * pipeline must survive on its own. A fault that cannot restore the system ends the schedule.
 */
public final class FaultSchedule {

    /** A fault and how often it comes. */
    public record Periodic(Fault fault, Duration every) {
    }

    /** One injected fault: which, when, how long until the system was whole again, and the error if it was not. */
    public record Outcome(String fault, Instant at, Duration took, String error) {
        public boolean survived() {
            return error == null;
        }
    }

    private final Harness harness;
    private final List<Periodic> faults;
    private final Random random;
    private final Consumer<Outcome> listener;
    private final List<Outcome> outcomes = new ArrayList<>();
    private final Object wakeUp = new Object();
    private final Thread thread;
    private volatile boolean stopping;

    private FaultSchedule(Harness harness, List<Periodic> faults, Random random, Consumer<Outcome> listener) {
        this.harness = harness;
        this.faults = List.copyOf(faults);
        this.random = random;
        this.listener = listener;
        this.thread = Thread.ofPlatform().name("fault-schedule").unstarted(this::run);
    }

    /** @param listener told of each fault once the system is whole again (or not) */
    public static FaultSchedule start(Harness harness, List<Periodic> faults, Random random, Consumer<Outcome> listener) {
        FaultSchedule schedule = new FaultSchedule(harness, faults, random, listener);
        schedule.thread.start();
        return schedule;
    }

    private void run() {
        long[] due = new long[faults.size()];
        for (int i = 0; i < due.length; i++) due[i] = System.nanoTime() + jittered(faults.get(i).every());
        while (!stopping && !faults.isEmpty()) {
            int next = 0;
            for (int i = 1; i < due.length; i++) if (due[i] < due[next]) next = i;
            if (!waitUntil(due[next])) return;
            Outcome outcome = inject(faults.get(next).fault());
            synchronized (outcomes) {
                outcomes.add(outcome);
            }
            listener.accept(outcome);
            if (!outcome.survived()) return;
            due[next] = System.nanoTime() + jittered(faults.get(next).every());
        }
    }

    private Outcome inject(Fault fault) {
        Instant at = Instant.now();
        long started = System.nanoTime();
        String error = null;
        try {
            fault.inject(harness, random);
        } catch (Exception e) {
            error = e.toString();
        }
        return new Outcome(fault.name(), at, Duration.ofNanos(System.nanoTime() - started), error);
    }

    private long jittered(Duration every) {
        return (long) (every.toNanos() * (0.75 + 0.5 * random.nextDouble()));
    }

    /** False if stopped before {@code deadline}. */
    private boolean waitUntil(long deadline) {
        synchronized (wakeUp) {
            while (!stopping) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return true;
                try {
                    wakeUp.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return false;
        }
    }

    /** Injects no further fault and waits for the one under way to be undone. */
    public void stop() {
        stopping = true;
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the fault schedule", e);
        }
    }

    public List<Outcome> outcomes() {
        synchronized (outcomes) {
            return List.copyOf(outcomes);
        }
    }

    /** Faults survived, by name. */
    public Map<String, Integer> survived() {
        Map<String, Integer> survived = new TreeMap<>();
        outcomes().stream().filter(Outcome::survived).forEach(outcome -> survived.merge(outcome.fault(), 1, Integer::sum));
        return survived;
    }
}
