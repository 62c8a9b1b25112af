package io.readmark.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * SIGKILLs one running processor process, as a crashed host, and starts it again with the same state dir; every
 * {@code wipeStateEvery}-th crash it starts with an empty one, as a host that lost its disk, so every store is
 * restored from its changelog topic. The host may stay down a while first. Returns once the restarted process is ready.
 */
public final class ProcessorCrash implements Fault {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final int wipeStateEvery;
    private final Duration downtime;
    private int crashes;
    private int wipes;

    /** @param wipeStateEvery 0: never wipe; n: wipe on the n-th, 2n-th, … crash */
    public ProcessorCrash(int wipeStateEvery) {
        this(wipeStateEvery, Duration.ZERO);
    }

    /** @param downtime how long the host stays down before the process starts again */
    public ProcessorCrash(int wipeStateEvery, Duration downtime) {
        this.wipeStateEvery = wipeStateEvery;
        this.downtime = downtime;
    }

    @Override
    public String name() {
        return "processor-crash";
    }

    @Override
    public synchronized void inject(Harness harness, Random random) {
        List<ProcessorProcess> running = harness.runningProcessors();
        if (running.isEmpty()) throw new IllegalStateException("no processor is running");
        ProcessorProcess victim = running.get(random.nextInt(running.size()));
        victim.kill();
        crashes++;
        if (wipeStateEvery > 0 && crashes % wipeStateEvery == 0) {
            victim.wipeState();
            wipes++;
        }
        if (downtime.isPositive()) Poll.pause(downtime);
        victim.start();
        victim.awaitReady(READY_TIMEOUT);
    }

    public synchronized int crashes() {
        return crashes;
    }

    /** Crashes after which the process started with an empty state dir. */
    public synchronized int wipes() {
        return wipes;
    }
}
