package io.readmark.reliability;

import io.readmark.common.config.Settings;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long and how hard {@code readmark soak} runs: the workload's duration and rate, how many processor processes
 * share the work, and how often each fault comes (processor crashes, Redis outages, bursts of bad records, broker
 * restarts, a crash during a Redis outage, a restart of the view API serving open streams), and whether a real Prometheus watches them.
 * Replicated, it runs on the topology production runs ({@link SoakTopology.Replicated}), where Redis master failovers
 * and Kafka leader kills take the place of the single servers' outages and restarts.
 *
 * @param brokerDowntime how long a killed broker stays down: the only one, or replicated the leader killed
 */
public record SoakConfig(Duration duration, long seed, int processors, int eventsPerSecond, Duration killEvery,
                         Duration redisOutageEvery, Duration redisOutage, Duration poisonEvery, int poisonBurst,
                         Duration brokerRestartEvery, Duration brokerDowntime, Duration crashDuringOutageEvery,
                         Duration viewRestartEvery, int partitions, boolean prometheus, boolean replicated,
                         Duration redisFailoverEvery, Duration kafkaLeaderKillEvery) {

    public static final String MINUTES = "SOAK_MINUTES";
    public static final String SEED = "SOAK_SEED";
    public static final String PROCESSORS = "SOAK_PROCESSORS";
    public static final String EVENTS_PER_SECOND = "SOAK_EVENTS_PER_SECOND";
    public static final String KILL_EVERY = "SOAK_KILL_EVERY";
    public static final String REDIS_OUTAGE_EVERY = "SOAK_REDIS_OUTAGE_EVERY";
    public static final String REDIS_OUTAGE = "SOAK_REDIS_OUTAGE";
    public static final String POISON_EVERY = "SOAK_POISON_EVERY";
    public static final String POISON_BURST = "SOAK_POISON_BURST";
    public static final String BROKER_RESTART_EVERY = "SOAK_BROKER_RESTART_EVERY";
    public static final String BROKER_DOWNTIME = "SOAK_BROKER_DOWNTIME";
    public static final String CRASH_DURING_OUTAGE_EVERY = "SOAK_CRASH_DURING_OUTAGE_EVERY";
    public static final String VIEW_RESTART_EVERY = "SOAK_VIEW_RESTART_EVERY";
    /** {@code true}: a real Prometheus scrapes the processors, and each fault's alert must fire and resolve. */
    public static final String PROMETHEUS = "SOAK_PROMETHEUS";
    /** {@code true}: three Kafka nodes and a Redis Cluster of three masters with a replica each, instead of one of each. */
    public static final String REPLICATED = "SOAK_REPLICATED";
    /** Replicated only: how often a Redis master is SIGKILLed while its replica lags, and the replica promoted. */
    public static final String REDIS_FAILOVER_EVERY = "SOAK_REDIS_FAILOVER_EVERY";
    /** Replicated only: how often the Kafka node leading an input partition is SIGKILLed. */
    public static final String KAFKA_LEADER_KILL_EVERY = "SOAK_KAFKA_LEADER_KILL_EVERY";
    /** Every setting of the soak; {@code readmark soak} also takes each without its {@code SOAK_} prefix ({@code --minutes 3}). */
    public static final List<String> SETTINGS = List.of(MINUTES, SEED, PROCESSORS, EVENTS_PER_SECOND, KILL_EVERY,
            REDIS_OUTAGE_EVERY, REDIS_OUTAGE, POISON_EVERY, POISON_BURST, BROKER_RESTART_EVERY, BROKER_DOWNTIME,
            CRASH_DURING_OUTAGE_EVERY, VIEW_RESTART_EVERY, PROMETHEUS, REPLICATED, REDIS_FAILOVER_EVERY, KAFKA_LEADER_KILL_EVERY);

    public SoakConfig {
        if (!duration.isPositive()) throw new IllegalArgumentException(MINUTES + " must be positive");
        if (processors < 1) throw new IllegalArgumentException(PROCESSORS + " must be at least 1");
        if (poisonBurst < 1) throw new IllegalArgumentException(POISON_BURST + " must be at least 1");
        requirePositive(KILL_EVERY, killEvery);
        requirePositive(REDIS_OUTAGE_EVERY, redisOutageEvery);
        requirePositive(REDIS_OUTAGE, redisOutage);
        requirePositive(POISON_EVERY, poisonEvery);
        requirePositive(BROKER_RESTART_EVERY, brokerRestartEvery);
        requirePositive(BROKER_DOWNTIME, brokerDowntime);
        requirePositive(CRASH_DURING_OUTAGE_EVERY, crashDuringOutageEvery);
        requirePositive(VIEW_RESTART_EVERY, viewRestartEvery);
        requirePositive(REDIS_FAILOVER_EVERY, redisFailoverEvery);
        requirePositive(KAFKA_LEADER_KILL_EVERY, kafkaLeaderKillEvery);
    }

    public static SoakConfig from(Settings settings) {
        return new SoakConfig(
                Duration.ofMinutes(settings.positiveInteger(MINUTES, 10)),
                settings.longValue(SEED, ThreadLocalRandom.current().nextLong(1, 1_000_000_000)),
                settings.positiveInteger(PROCESSORS, 2),
                settings.positiveInteger(EVENTS_PER_SECOND, 200),
                settings.duration(KILL_EVERY, Duration.ofSeconds(30)),
                settings.duration(REDIS_OUTAGE_EVERY, Duration.ofSeconds(90)),
                settings.duration(REDIS_OUTAGE, Duration.ofSeconds(20)),
                settings.duration(POISON_EVERY, Duration.ofSeconds(20)),
                settings.positiveInteger(POISON_BURST, 200),
                settings.duration(BROKER_RESTART_EVERY, Duration.ofSeconds(120)),
                settings.duration(BROKER_DOWNTIME, Duration.ofSeconds(10)),
                settings.duration(CRASH_DURING_OUTAGE_EVERY, Duration.ofMinutes(3)),
                settings.duration(VIEW_RESTART_EVERY, Duration.ofMinutes(2)),
                3,
                settings.bool(PROMETHEUS, false),
                settings.bool(REPLICATED, false),
                settings.duration(REDIS_FAILOVER_EVERY, Duration.ofSeconds(90)),
                settings.duration(KAFKA_LEADER_KILL_EVERY, Duration.ofSeconds(120)));
    }

    public WorkloadShape shape() {
        return WorkloadShape.small(eventsPerSecond);
    }

    private static void requirePositive(String setting, Duration value) {
        if (!value.isPositive()) throw new IllegalArgumentException(setting + " must be positive, was " + value);
    }
}
