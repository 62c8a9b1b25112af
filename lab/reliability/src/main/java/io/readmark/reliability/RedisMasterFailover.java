package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedisCluster;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * A master of the Redis Cluster SIGKILLed while its replica lags behind it, as a host that crashed just after the
 * link to its replica failed: the cluster promotes the replica by itself, and whatever the dead master acknowledged
 * that the replica missed must not be lost. The processors wait for a replica of every master before their offsets
 * commit ({@code READMARK_REDIS_WAIT_REPLICAS=1}) and send again what was not confirmed. The old master is started
 * again once clients have moved, and the fault ends when it is the new master's replica, in sync: the next failover
 * of that pair, with the roles swapped, has a replica to promote. The kill waits (a while at most) for a big-V fan-out
 * in flight, so that it falls between a post's chunks. No processor may exit and no stream thread may fail meanwhile.
 */
public final class RedisMasterFailover implements Fault {

    private static final Duration FANOUT_WAIT = Duration.ofSeconds(15);
    /**
     * How long the replica misses writes before its master dies: several commit intervals, and far less than the link
     * age past which a replica no longer stands for election (node timeout × validity factor, plus the ping period).
     */
    private static final Duration LAG = Duration.ofSeconds(3);
    /** Long enough for the writers to find the promoted master before the old one returns. */
    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final Duration PROMOTED = Duration.ofSeconds(30);
    private static final Duration IN_SYNC = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(200);

    private final EmbeddedRedisCluster redis;
    private int duringFanout;

    public RedisMasterFailover(EmbeddedRedisCluster redis) {
        this.redis = redis;
    }

    @Override
    public String name() {
        return "redis-master-failover";
    }

    @Override
    public synchronized void inject(Harness harness, Random random) {
        List<Integer> pair = pair(random);
        Poll.until(() -> answers(() -> whole(pair)), IN_SYNC, POLL,
                () -> "the Redis nodes " + pair + " are not a master and a replica in sync");
        int master = redis.isMaster(pair.get(0)) ? pair.get(0) : pair.get(1);
        int replica = master == pair.get(0) ? pair.get(1) : pair.get(0);
        ProcessorsUnharmed processors = ProcessorsUnharmed.before(harness);
        harness.awaitFanoutInFlight(FANOUT_WAIT);
        boolean killed = false;
        boolean fanoutAtKill = false;
        try {
            redis.cutReplication(replica);
            Poll.pause(LAG);
            fanoutAtKill = harness.awaitFanoutInFlight(Duration.ZERO);
            redis.kill(master);
            killed = true;
            Poll.until(() -> answers(() -> redis.isMaster(replica)), PROMOTED, POLL,
                    () -> "the replica on port " + replica + " was not promoted after its master on port " + master + " died");
            Poll.pause(SETTLE);
        } finally {
            // Promoted or not, the replica gets its link back (a master ignores it), so nothing stays cut after a failure.
            answers(() -> {
                redis.restoreReplication(replica);
                return true;
            });
            if (killed) redis.restart(master);
        }
        Poll.until(() -> answers(() -> redis.isSyncedReplica(master)), IN_SYNC, POLL,
                () -> "the old master on port " + master + " is not back as a replica in sync");
        processors.require(name());
        if (fanoutAtKill) duringFanout++;
    }

    /** The master started and its replica, whichever of them is master now: chosen by the run's randomness. */
    private List<Integer> pair(Random random) {
        List<Integer> masters = redis.ports();
        int first = masters.get(random.nextInt(masters.size()));
        return List.of(first, redis.replicaOf(first));
    }

    /** One of the two a master, the other its replica in sync. */
    private boolean whole(List<Integer> pair) {
        boolean firstMaster = redis.isMaster(pair.get(0));
        if (firstMaster == redis.isMaster(pair.get(1))) return false;
        return redis.isSyncedReplica(firstMaster ? pair.get(1) : pair.get(0));
    }

    /** False while a node does not answer yet (starting, loading its data). */
    private static boolean answers(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RuntimeException e) {
            return false;
        }
    }


    /** How many of the kills came while a processor reported followers of a big-V post still to fan out. */
    public synchronized int duringFanout() {
        return duringFanout;
    }
}
