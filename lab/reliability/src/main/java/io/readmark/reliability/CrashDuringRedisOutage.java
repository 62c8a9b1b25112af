package io.readmark.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * Two faults at once: Redis stops, and while it is down a processor process is SIGKILLed and started again, as a
 * host restarted during an outage. The new process must not crash-loop nor start consuming: it answers live and
 * not ready until Redis is back (and says so: {@code readmark_waiting_for_redis}), then starts by itself and applies
 * what waited. Returns once every processor is ready again.
 */
public final class CrashDuringRedisOutage implements Fault {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(200);

    private final Duration length;
    private int injected;

    /** @param length how long Redis stays down after the restarted process answered, waiting for it */
    public CrashDuringRedisOutage(Duration length) {
        this.length = length;
    }

    @Override
    public String name() {
        return "crash-during-redis-outage";
    }

    @Override
    public synchronized void inject(Harness harness, Random random) throws Exception {
        new RedisOutage(length, (h, redisBackAt) -> {
            crashAndRestart(h, random);
            // The restarted process waits for Redis as long as a real outage lasts, not just while it started.
            Poll.pause(length);
        }).inject(harness, random);
        harness.awaitReady();
        injected++;
    }

    /** While Redis is down: kill one processor, start it again, and see it wait rather than fail. */
    private static void crashAndRestart(Harness harness, Random random) {
        List<ProcessorProcess> running = harness.runningProcessors();
        if (running.isEmpty()) throw new IllegalStateException("no processor is running");
        ProcessorProcess victim = running.get(random.nextInt(running.size()));
        victim.kill();
        victim.start();
        Poll.until(() -> {
            if (!victim.isAlive()) throw new IllegalStateException(victim.name() + " exited while Redis was down:\n" + victim.logTail(40));
            return victim.status("/health/live") == 200;
        }, START_TIMEOUT, POLL, () -> victim.name() + " did not answer /health/live while Redis was down:\n" + victim.logTail(40));
        int ready = victim.status("/health/ready");
        if (ready != 503) throw new IllegalStateException(victim.name() + " answered /health/ready " + ready + " while Redis was down");
    }

    public synchronized int injected() {
        return injected;
    }
}
