package io.readmark.reliability;

import java.time.Duration;
import java.util.Random;

/**
 * SIGKILLs the Kafka broker's process, keeps it down for a while and starts it again on the same port with its data
 * ({@link RestartableKafka}), as a crashed broker that its supervisor restarts: nothing flushed, the log recovered at
 * the start. The kill waits (a while at most) for a big-V fan-out in flight, so that it falls between a post's chunks.
 * Producers and processors must wait and carry on by themselves: no processor may exit and no stream thread may fail
 * meanwhile. Returns once every processor is ready again.
 */
public final class BrokerRestart implements Fault {

    private static final Duration FANOUT_WAIT = Duration.ofSeconds(15);

    private final Duration downtime;
    private int restarts;
    private int duringFanout;

    public BrokerRestart(Duration downtime) {
        this.downtime = downtime;
    }

    @Override
    public String name() {
        return "broker-restart";
    }

    @Override
    public synchronized void inject(Harness harness, Random random) {
        RestartableKafka kafka = harness.kafka().orElseThrow(() -> new IllegalStateException("no restartable Kafka to stop"));
        ProcessorsUnharmed processors = ProcessorsUnharmed.before(harness);
        boolean fanoutSeenInFlight = harness.awaitFanoutInFlight(FANOUT_WAIT);
        kafka.kill();
        try {
            Poll.pause(downtime);
        } finally {
            kafka.start();
            restarts++;
            if (fanoutSeenInFlight) duringFanout++;
        }
        processors.require("broker restart");
    }

    public synchronized int restarts() {
        return restarts;
    }

    /** How many of the kills came right after a processor reported followers of a big-V post still to fan out. */
    public synchronized int duringFanout() {
        return duringFanout;
    }
}
