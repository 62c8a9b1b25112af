package io.readmark.reliability;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * The long run: on its own Kafka and Redis ({@link SoakTopology}: one restartable broker and a persistent Redis, or
 * replicated as in production), several processor processes share the work while a continuous workload flows, a view
 * API keeps unread streams open, and faults come one after another (by default processor crashes, bursts of bad
 * records and view-API restarts, and on one server each Redis outages, broker restarts and a crash during an outage,
 * replicated Redis master failovers and Kafka leader kills instead; further {@link Fault}s plug in through
 * {@link #run(SoakConfig, Function, PrintStream)}), each with its alert when a Prometheus watches. At the end the
 * pipeline must drain, Redis must hold exactly the model's state, every stream's last push must equal it and every
 * bad record must be on the dead-letter topic; then Redis loses everything, and the rebuild must bring back exactly
 * the model's state.
 */
public final class SoakRun {

    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);
    /** Every third crash loses the state dir, so changelog restore is exercised too. */
    private static final int WIPE_STATE_EVERY = 3;
    /** The deployed rules' windows shortened to this, so an alert resolves seconds after its fault. */
    private static final Duration ALERT_WINDOW = Duration.ofSeconds(10);
    /** With Prometheus watching, a crashed host stays down long enough to be scraped as down. */
    private static final Duration WATCHED_CRASH_DOWNTIME = Duration.ofSeconds(5);
    /** With Prometheus watching, the broker stays down long enough for a window without heartbeats, and then some. */
    private static final Duration WATCHED_BROKER_DOWNTIME = ALERT_WINDOW.plusSeconds(10);
    /** Users with an open unread stream through the soak. */
    private static final int WATCH_EVERY_NTH_USER = 12;
    /** How long the last pushes may take to reach the drained state. */
    private static final Duration PUSH_SETTLE = Duration.ofSeconds(60);
    /** The alert each default fault must fire, by fault name. */
    private static final Map<String, String> ALERT_OF_FAULT = Map.of("processor-crash", "ReadmarkProcessorDown",
            "redis-outage", "ReadmarkRedisWriteRetries", "poison-pills", "ReadmarkDeadLetters",
            "broker-restart", "ReadmarkKafkaUnreachable", "crash-during-redis-outage", "ReadmarkProcessorWaitingForRedis",
            "redis-master-failover", "ReadmarkRedisWriteRetries");

    private SoakRun() {
    }

    /**
     * The faults of a soak, as often as configured: processor crashes and bad records; on a single server each Redis
     * outages, broker restarts and a processor crash during a Redis outage; replicated, Redis master failovers and
     * Kafka leader kills, as a replica takes over where a single server could only come back.
     */
    public static List<FaultSchedule.Periodic> defaultFaults(SoakConfig config, SoakTopology topology) {
        Duration crashDowntime = config.prometheus() ? WATCHED_CRASH_DOWNTIME : Duration.ZERO;
        FaultSchedule.Periodic crashes = new FaultSchedule.Periodic(new ProcessorCrash(WIPE_STATE_EVERY, crashDowntime), config.killEvery());
        FaultSchedule.Periodic badRecords = new FaultSchedule.Periodic(new PoisonPills(config.poisonBurst()), config.poisonEvery());
        return switch (topology) {
            case SoakTopology.SingleNode ignored -> {
                Duration brokerDowntime = config.prometheus() && config.brokerDowntime().compareTo(WATCHED_BROKER_DOWNTIME) < 0
                        ? WATCHED_BROKER_DOWNTIME : config.brokerDowntime();
                yield List.of(crashes,
                        new FaultSchedule.Periodic(new RedisOutage(config.redisOutage()), config.redisOutageEvery()),
                        badRecords,
                        new FaultSchedule.Periodic(new BrokerRestart(brokerDowntime), config.brokerRestartEvery()),
                        new FaultSchedule.Periodic(new CrashDuringRedisOutage(config.redisOutage()), config.crashDuringOutageEvery()));
            }
            case SoakTopology.Replicated replicated -> List.of(crashes,
                    new FaultSchedule.Periodic(new RedisMasterFailover(replicated.redis()), config.redisFailoverEvery()),
                    badRecords,
                    new FaultSchedule.Periodic(new KafkaLeaderKill(replicated.kafka(), config.brokerDowntime()), config.kafkaLeaderKillEvery()));
        };
    }

    public static SoakReport run(SoakConfig config, PrintStream out) {
        return run(config, topology -> defaultFaults(config, topology), out);
    }

    /** @param faults the faults to inject, given the Kafka and Redis the run launched; a view-API restart is added */
    public static SoakReport run(SoakConfig config, Function<SoakTopology, List<FaultSchedule.Periodic>> faults, PrintStream out) {
        long started = System.nanoTime();
        RunNames names = RunNames.random("soak");
        Path workDir = createWorkDir();
        out.printf("soak: %s of workload at %d events/s, %d processors, seed %d; logs in %s%n", SoakReport.minutesAndSeconds(config.duration()),
                config.eventsPerSecond(), config.processors(), config.seed(), workDir);
        SoakReport report = soak(config, faults, out, names, workDir, started);
        if (report.passed()) deleteQuietly(workDir);
        return report;
    }

    private static SoakReport soak(SoakConfig config, Function<SoakTopology, List<FaultSchedule.Periodic>> faults, PrintStream out,
                                   RunNames names, Path workDir, long started) {
        try (SoakTopology topology = SoakTopology.launch(config);
             Harness harness = harness(topology, config, names, workDir)) {
            out.printf("soak: on %s%n", topology.description());
            for (int i = 1; i <= config.processors(); i++) harness.startProcessor("processor-" + i, topology.processorSettings());
            harness.awaitReady();
            harness.setUpWorkload();
            out.printf("soak: %d processors ready, follower graph produced; workload and faults start%n", config.processors());
            try (PushWatch push = PushWatch.start(topology.redisUrl(), names.redisPrefix(), watchedUsers(config), workDir);
                 PrometheusServer prometheus = config.prometheus() ? startPrometheus(harness, workDir, out) : null) {
                List<FaultSchedule.Periodic> given = faults.apply(topology);
                List<FaultSchedule.Periodic> scheduled = new ArrayList<>(prometheus == null ? given : alerted(given, prometheus));
                scheduled.add(new FaultSchedule.Periodic(new ViewApiRestart(push), config.viewRestartEvery()));
                out.printf("soak: %d unread streams open on a view API, reconnecting whenever they end%n", push.users());
                return soakWith(config, topology, scheduled, out, harness, push, workDir, started);
            }
        }
    }

    /** The run's harness; on a single server each, with the broker and the Redis its faults stop and start again. */
    private static Harness harness(SoakTopology topology, SoakConfig config, RunNames names, Path workDir) {
        Pipeline pipeline = new Pipeline(topology.bootstrapServers(), topology.redisUrl(), names, config.partitions());
        return switch (topology) {
            case SoakTopology.SingleNode single -> new Harness(pipeline, config.shape(), config.seed(), workDir, single.kafka(), single.redis());
            case SoakTopology.Replicated ignored -> new Harness(pipeline, config.shape(), config.seed(), workDir, null, null);
        };
    }

    /** What a run on this topology leaves out that a run on the other does, for the report. */
    private static List<String> leftOut(SoakConfig config, SoakTopology topology) {
        return switch (topology) {
            case SoakTopology.SingleNode ignored -> List.of("Redis master failovers and Kafka leader kills: a single server has no"
                    + " replica to take over (" + SoakConfig.REPLICATED + "=true runs them)");
            case SoakTopology.Replicated ignored -> {
                List<String> left = new ArrayList<>(List.of("Redis outages, broker restarts and crashes during a Redis outage: they"
                        + " take the only server away; here a replica takes over instead (redis-master-failover, kafka-leader-kill)"));
                if (config.prometheus()) left.add("alerts of kafka-leader-kill: not checked, as no deployed rule must fire for"
                        + " it (ReadmarkKafkaUnreachable may or may not while another node takes over)");
                yield left;
            }
        };
    }

    private static SoakReport soakWith(SoakConfig config, SoakTopology topology, List<FaultSchedule.Periodic> faults, PrintStream out,
                                       Harness harness, PushWatch push, Path workDir, long started) {
        List<String> failures = new ArrayList<>();
        long workloadStarted = System.nanoTime();
        FaultSchedule schedule = runWorkloadWithFaults(harness, config, faults, failures, out);
        Duration workloadTook = Duration.ofNanos(System.nanoTime() - workloadStarted);
        out.printf("soak: workload stopped after %,d events; draining%n", harness.eventsProduced());

        Duration drained = null;
        CheckResult check = null;
        try {
            restartStopped(harness);
            drained = harness.drain(DRAIN_TIMEOUT);
        } catch (IllegalStateException e) {
            failures.add("drain: " + e.getMessage());
        }
        long checkedAt = System.currentTimeMillis();
        try {
            check = harness.check();
        } catch (RuntimeException e) {
            failures.add("check: " + e);
        }
        PushCheck pushCheck = checkPushes(harness, push, failures);
        Map<PoisonPills.Source, BadRecords.Category> badRecords = fault(faults, PoisonPills.class)
                .map(PoisonPills::sentBySource).orElse(Map.of());
        DeadLetterAudit deadLetters = null;
        try {
            deadLetters = DeadLetterAudit.of(harness.pipeline(), badRecords);
        } catch (RuntimeException e) {
            failures.add("dead-letter topic: " + e);
        }
        RedisLossRecovery.Outcome redisLoss = drained == null ? null : redisLost(harness, workDir, failures, out);
        return new SoakReport(config.seed(), topology.description(), leftOut(config, topology), workloadTook,
                Duration.ofNanos(System.nanoTime() - started), config.processors(), harness.eventsProduced(), schedule.survived(),
                alertsConfirmed(faults), failures, drained, check, pushCheck, badRecords.size(), deadLetters, redisLoss,
                harness.expected().noticesExpiredBy(checkedAt), killsDuringFanout(faults), workDir);
    }

    /** By fault name, the kills of each fault that waits for a big-V fan-out that fell during one. */
    private static Map<String, Integer> killsDuringFanout(List<FaultSchedule.Periodic> faults) {
        Map<String, Integer> during = new TreeMap<>();
        fault(faults, BrokerRestart.class).ifPresent(fault -> during.put(fault.name(), fault.duringFanout()));
        fault(faults, RedisMasterFailover.class).ifPresent(fault -> during.put(fault.name(), fault.duringFanout()));
        return during;
    }

    /** The scheduled fault of that class, unwrapped from its alert check. */
    private static <F extends Fault> Optional<F> fault(List<FaultSchedule.Periodic> faults, Class<F> type) {
        return faults.stream().map(FaultSchedule.Periodic::fault)
                .map(fault -> fault instanceof AlertedFault alerted ? alerted.fault() : fault)
                .filter(type::isInstance).map(type::cast).findFirst();
    }

    /** Every watched stream's last push against the model's final counts; a difference is a failure of the run. */
    private static PushCheck checkPushes(Harness harness, PushWatch push, List<String> failures) {
        ExpectedUnread expected = harness.expected();
        List<String> differing = push.awaitFinal(user -> PushWatch.Counts.expected(expected, user), PUSH_SETTLE);
        differing.stream().limit(5).forEach(difference -> failures.add("push: " + difference));
        return new PushCheck(push.users(), push.pushes(), push.connections(), differing.size());
    }

    /** Every twelfth user: a few dozen streams, spread over the workload's users. */
    private static List<Long> watchedUsers(SoakConfig config) {
        int users = config.shape().users();
        return LongStream.rangeClosed(1, users).filter(user -> user % WATCH_EVERY_NTH_USER == 0).boxed().toList();
    }

    /** Prometheus scraping every processor process, on the deployed alert rules with shorter windows. */
    private static PrometheusServer startPrometheus(Harness harness, Path workDir, PrintStream out) {
        PrometheusServer prometheus = PrometheusServer.start(workDir.resolve("prometheus"),
                AlertRules.quickened(AlertRules.deployed(), PrometheusServer.INTERVAL, ALERT_WINDOW),
                () -> harness.processors().stream().filter(p -> p.httpPort() > 0).map(p -> "127.0.0.1:" + p.httpPort()).toList());
        out.println("soak: Prometheus scrapes the processors; each fault's alert must fire and resolve");
        return prometheus;
    }

    /** Each fault with an alert of its own wrapped so that the alert must fire and resolve; the others as they are. */
    private static List<FaultSchedule.Periodic> alerted(List<FaultSchedule.Periodic> faults, PrometheusServer prometheus) {
        return faults.stream().map(periodic -> {
            String alert = ALERT_OF_FAULT.get(periodic.fault().name());
            return alert == null ? periodic
                    : new FaultSchedule.Periodic(new AlertedFault(periodic.fault(), alert, prometheus), periodic.every());
        }).toList();
    }

    /** Alerts seen firing and resolving, by name; empty when no Prometheus watched. */
    private static Map<String, Integer> alertsConfirmed(List<FaultSchedule.Periodic> faults) {
        Map<String, Integer> confirmed = new TreeMap<>();
        faults.stream().map(FaultSchedule.Periodic::fault).filter(AlertedFault.class::isInstance).map(AlertedFault.class::cast)
                .forEach(fault -> confirmed.merge(fault.alert(), fault.confirmed(), Integer::sum));
        return confirmed;
    }

    /** The workload for the configured time with the faults coming meanwhile; adds what did not recover to {@code failures}. */
    private static FaultSchedule runWorkloadWithFaults(Harness harness, SoakConfig config, List<FaultSchedule.Periodic> faults,
                                                       List<String> failures, PrintStream out) {
        long started = System.nanoTime();
        WorkloadRunner workload = harness.startWorkload();
        FaultSchedule schedule = FaultSchedule.start(harness, faults, new Random(config.seed()),
                outcome -> out.printf("soak: [%s] %s %s after %.1f s (%,d events so far)%n", elapsed(started),
                        outcome.fault(), outcome.survived() ? "recovered" : "NOT RECOVERED: " + outcome.error(),
                        outcome.took().toMillis() / 1000.0, harness.eventsProduced()));
        long end = started + config.duration().toNanos();
        while (System.nanoTime() < end && workload.isRunning()) {
            Poll.pause(Duration.ofNanos(Math.min(PROGRESS_EVERY.toNanos(), end - System.nanoTime())));
            out.printf("soak: [%s] %,d events produced%n", elapsed(started), harness.eventsProduced());
        }
        schedule.stop();
        schedule.outcomes().stream().filter(outcome -> !outcome.survived())
                .forEach(outcome -> failures.add(outcome.fault() + ": " + outcome.error()));
        if (schedule.outcomes().stream().allMatch(FaultSchedule.Outcome::survived)) {
            // A run twice as long as a fault's period that never injected it did not test it.
            faults.stream().filter(periodic -> config.duration().compareTo(periodic.every().multipliedBy(2)) >= 0)
                    .map(periodic -> periodic.fault().name()).filter(name -> !schedule.survived().containsKey(name))
                    .forEach(name -> failures.add(name + ": never injected in " + elapsed(started)));
        }
        try {
            workload.stop();
        } catch (IllegalStateException e) {
            failures.add("workload: " + e.getMessage() + ": " + e.getCause());
        }
        return schedule;
    }

    /** Redis loses everything while the processors keep running; the rebuild and the reconcile must make it whole. */
    private static RedisLossRecovery.Outcome redisLost(Harness harness, Path workDir, List<String> failures, PrintStream out) {
        out.println("soak: Redis loses everything (FLUSHALL); a rebuild is SIGKILLed an eighth of the way in, then one rebuilds from Kafka beside the running processors");
        try {
            RedisLossRecovery.Outcome outcome = RedisLossRecovery.run(harness, workDir.resolve("rebuild-state"));
            out.printf("soak: rebuilt %,d records in %.1f s, removed what the killed rebuild left (%s), left after it: %s; %s%n",
                    outcome.rebuild().records(), outcome.rebuild().elapsed().toMillis() / 1000.0,
                    String.join(", ", outcome.rebuild().leftoversRemoved()), outcome.leftovers().isEmpty() ? "nothing" : outcome.leftovers(),
                    outcome.exact() ? "exact, no drift" : "NOT EXACT");
            if (!outcome.cleanedUp()) failures.add("rebuild: the killed rebuild's leftovers were not all removed (removed: "
                    + outcome.rebuild().leftoversRemoved() + ", left: " + outcome.leftovers() + ")");
            return outcome;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add("rebuild: interrupted");
        } catch (RuntimeException e) {
            failures.add("rebuild: " + e);
        }
        return null;
    }

    /** A fault that could not recover may have left a processor down; the drain needs every one of them. */
    private static void restartStopped(Harness harness) {
        for (ProcessorProcess processor : harness.processors()) {
            if (!processor.isAlive()) processor.start();
        }
        harness.awaitReady();
    }

    private static String elapsed(long sinceNanos) {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - sinceNanos);
        return "%d:%02d".formatted(elapsed.toMinutes(), elapsed.toSecondsPart());
    }

    private static Path createWorkDir() {
        try {
            return Files.createTempDirectory("readmark-soak-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the soak's work dir", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Leftovers in the temp dir are harmless.
        }
    }
}
