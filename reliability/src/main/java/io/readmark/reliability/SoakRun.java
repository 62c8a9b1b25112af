package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedis;

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
import java.util.Random;
import java.util.stream.Stream;

/**
 * The long run: on its own restartable Kafka and persistent Redis, several processor processes share the work while
 * a continuous workload flows and faults come one after another (by default processor crashes, Redis outages, bursts
 * of bad records and broker restarts; further {@link Fault}s plug in through {@link #run(SoakConfig, List, PrintStream)}).
 * At the end the pipeline must drain, Redis must hold exactly the model's state and every bad record must be on the
 * dead-letter topic; then Redis loses everything, and the rebuild must bring back exactly the model's state.
 */
public final class SoakRun {

    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);
    /** Every third crash loses the state dir, so changelog restore is exercised too. */
    private static final int WIPE_STATE_EVERY = 3;

    private SoakRun() {
    }

    /** The faults of a soak: processor crashes, Redis outages, bad records and broker restarts, as often as configured. */
    public static List<FaultSchedule.Periodic> defaultFaults(SoakConfig config) {
        return List.of(new FaultSchedule.Periodic(new ProcessorCrash(WIPE_STATE_EVERY), config.killEvery()),
                new FaultSchedule.Periodic(new RedisOutage(config.redisOutage()), config.redisOutageEvery()),
                new FaultSchedule.Periodic(new PoisonPills(config.poisonBurst()), config.poisonEvery()),
                new FaultSchedule.Periodic(new BrokerRestart(config.brokerDowntime()), config.brokerRestartEvery()));
    }

    public static SoakReport run(SoakConfig config, PrintStream out) {
        return run(config, defaultFaults(config), out);
    }

    public static SoakReport run(SoakConfig config, List<FaultSchedule.Periodic> faults, PrintStream out) {
        long started = System.nanoTime();
        RunNames names = RunNames.random("soak");
        Path workDir = createWorkDir();
        out.printf("soak: %s of workload at %d events/s, %d processors, seed %d; logs in %s%n", SoakReport.minutesAndSeconds(config.duration()),
                config.eventsPerSecond(), config.processors(), config.seed(), workDir);
        SoakReport report = soak(config, faults, out, names, workDir, started);
        if (report.passed()) deleteQuietly(workDir);
        return report;
    }

    private static SoakReport soak(SoakConfig config, List<FaultSchedule.Periodic> faults, PrintStream out, RunNames names,
                                   Path workDir, long started) {
        try (RestartableKafka kafka = RestartableKafka.launch();
             EmbeddedRedis redis = EmbeddedRedis.startPersistent(0);
             Harness harness = new Harness(new Pipeline(kafka.bootstrapServers(), redis.url(), names, config.partitions()),
                     config.shape(), config.seed(), workDir, kafka, redis)) {
            for (int i = 1; i <= config.processors(); i++) harness.startProcessor("processor-" + i);
            harness.awaitReady();
            harness.setUpWorkload();
            out.printf("soak: %d processors ready, follower graph produced; workload and faults start%n", config.processors());

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
            try {
                check = harness.check();
            } catch (RuntimeException e) {
                failures.add("check: " + e);
            }
            Map<PoisonPills.Source, BadRecords.Category> badRecords = faults.stream().map(FaultSchedule.Periodic::fault)
                    .filter(PoisonPills.class::isInstance).map(PoisonPills.class::cast).findFirst()
                    .map(PoisonPills::sentBySource).orElse(Map.of());
            DeadLetterAudit deadLetters = null;
            try {
                deadLetters = DeadLetterAudit.of(harness.pipeline(), badRecords);
            } catch (RuntimeException e) {
                failures.add("dead-letter topic: " + e);
            }
            RedisLossRecovery.Outcome redisLoss = drained == null ? null : redisLost(harness, workDir, failures, out);
            return new SoakReport(config.seed(), workloadTook, Duration.ofNanos(System.nanoTime() - started),
                    config.processors(), harness.eventsProduced(), schedule.survived(), failures, drained, check,
                    badRecords.size(), deadLetters, redisLoss, workDir);
        }
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
        try {
            workload.stop();
        } catch (IllegalStateException e) {
            failures.add("workload: " + e.getMessage() + ": " + e.getCause());
        }
        return schedule;
    }

    /** Redis loses everything while the processors keep running; the rebuild and the reconcile must make it whole. */
    private static RedisLossRecovery.Outcome redisLost(Harness harness, Path workDir, List<String> failures, PrintStream out) {
        out.println("soak: Redis loses everything (FLUSHALL); rebuilding from Kafka beside the running processors");
        try {
            RedisLossRecovery.Outcome outcome = RedisLossRecovery.run(harness, workDir.resolve("rebuild-state"));
            out.printf("soak: rebuilt %,d records in %.1f s; %s%n", outcome.rebuild().records(),
                    outcome.rebuild().elapsed().toMillis() / 1000.0, outcome.exact() ? "exact, no drift" : "NOT EXACT");
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
