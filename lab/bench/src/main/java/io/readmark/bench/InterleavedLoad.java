package io.readmark.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Several read variants measured in turn, repetition after repetition (A B C, A B C, …), and within a repetition slice
 * by slice ({@link BenchConfig#readSlices()}, each measurement the sum of its slices), all with the same
 * {@link ConcurrentLoad}: on a shared, noisy machine a slow stretch then falls on several variants instead of all of
 * one, and variants are compared within a repetition. Unmeasured warm-up rounds go on until the JIT is done compiling
 * ({@link CpuUsage#compiling()}), at most {@value #MAX_WARMUP_ROUNDS}. A {@linkplain #disturbance(Map) disturbed}
 * repetition is run again, at most as many extra times as there are repetitions. With {@code BENCH_JFR} every
 * measurement has its own recording {@code <prefix>-<variant>-<repetition>[-again<n>][-<slice>].jfr}.
 */
final class InterleavedLoad {

    static final int MAX_WARMUP_ROUNDS = 4;

    /** One thing to measure: a short name (JSON, file names), a label for the progress line, and its clients. */
    record Variant(String name, String label, ConcurrentLoad.ClientFactory clients) {
    }

    /** One repetition of one variant. */
    record Measurement(ConcurrentLoad.Result load, CpuUsage cpu) {
        /** The JVM's CPU per answered request, in µs: the load generator's share is the same for every HTTP variant. */
        double javaMicrosPerRequest() {
            return cpu.javaCores() / load.perSecond() * 1e6;
        }

        /** The slices of one measurement as one. */
        static Measurement merge(List<Measurement> slices) {
            return new Measurement(ConcurrentLoad.Result.merge(slices.stream().map(Measurement::load).toList()),
                    CpuUsage.merge(slices.stream().map(Measurement::cpu).toList()));
        }
    }

    /**
     * The measurements of every variant, in the order the variants were given; how many warm-up rounds ran, how many
     * repetitions were run again, and how many disturbed ones are among the measurements.
     */
    record Results(Map<String, List<Measurement>> byVariant, int warmupRounds, int repetitionsRunAgain, int disturbedKept) {
        List<Measurement> of(String variant) {
            List<Measurement> measurements = byVariant.get(variant);
            if (measurements == null) throw new IllegalArgumentException("no variant " + variant);
            return measurements;
        }

        Spread spread(String variant, ToDoubleFunction<Measurement> value) {
            return Spread.of(of(variant).stream().map(value::applyAsDouble).toList());
        }

        Spread perSecond(String variant) {
            return spread(variant, m -> m.load().perSecond());
        }

        Spread p99Millis(String variant) {
            return spread(variant, m -> m.load().p99Millis());
        }

        /** {@code numerator / denominator} rates within each repetition. */
        Spread ratio(String numerator, String denominator) {
            return Spread.ofRatios(of(numerator).stream().map(m -> m.load().perSecond()).toList(),
                    of(denominator).stream().map(m -> m.load().perSecond()).toList());
        }
    }

    private InterleavedLoad() {
    }

    static Results run(BenchConfig config, String prefix, List<Variant> variants, int users, RedisStats stats,
                       PrintStream err) throws Exception {
        Map<String, List<Measurement>> results = new LinkedHashMap<>();
        variants.forEach(variant -> results.put(variant.name(), new ArrayList<>()));
        int warmupRounds = warmUp(config, prefix, variants, users, stats, err);
        int repetitions = config.readRepetitions();
        RunsAgain runsAgain = new RunsAgain(prefix, repetitions, err);
        int slices = config.readSlices();
        Duration sliceWarmup = config.readWarmup().dividedBy(slices), sliceDuration = config.readDuration().dividedBy(slices);
        for (int repetition = 1; repetition <= repetitions; repetition++) {
            Map<String, List<Measurement>> sliced = new LinkedHashMap<>();
            for (int slice = 1; slice <= slices; slice++) {
                // Hashed: each client draws from seed + its index, so consecutive seeds would replay another slice's users.
                long seed = new SplittableRandom(config.seed() + (long) repetition * slices + slice).nextLong();
                for (Variant variant : variants) {
                    String label = variant.label() + " " + repetition + "/" + repetitions
                            + (slices > 1 ? " slice " + slice + "/" + slices : "");
                    String recording = prefix + "-" + variant.name() + "-" + repetition + runsAgain.attemptSuffix()
                            + (slices > 1 ? "-" + slice : "");
                    sliced.computeIfAbsent(variant.name(), name -> new ArrayList<>()).add(measure(config.jfrDirectory(), recording, stats,
                            () -> ConcurrentLoad.run(label, config.readConcurrency(), sliceWarmup, sliceDuration, users, seed,
                                    variant.clients(), err), err));
                }
            }
            Map<String, Measurement> measured = new LinkedHashMap<>();
            sliced.forEach((variant, parts) -> measured.put(variant, Measurement.merge(parts)));
            err.printf("%s repetition %d%s: %s%n", prefix, repetition, runsAgain.attemptSuffix(), summary(measured));
            if (runsAgain.shouldRunAgain(repetition, disturbance(sliced))) {
                repetition--;
                continue;
            }
            measured.forEach((variant, measurement) -> results.get(variant).add(measurement));
        }
        return new Results(results, warmupRounds, runsAgain.repetitionsRunAgain(), runsAgain.disturbedKept());
    }

    /** One load with its CPU; a JFR recording, if on, starts before the meter and is written after it. */
    private static Measurement measure(Optional<Path> jfrDirectory, String recordingName, RedisStats stats,
                                       Callable<ConcurrentLoad.Result> load, PrintStream err) throws Exception {
        try (PhaseRecording recording = PhaseRecording.start(jfrDirectory, recordingName, err)) {
            CpuUsage.Meter meter = CpuUsage.start(stats);
            ConcurrentLoad.Result result = load.call();
            return new Measurement(result, meter.stop());
        }
    }

    /**
     * Unmeasured rounds of every variant (the HTTP codecs, Jackson, Lettuce's decoder are cold right after the write
     * phases), until the JIT compiled for at most {@link CpuUsage#COMPILING_SHARE} of each variant's time in a round,
     * or {@value #MAX_WARMUP_ROUNDS} rounds ran; returns how many ran.
     */
    private static int warmUp(BenchConfig config, String prefix, List<Variant> variants, int users, RedisStats stats,
                              PrintStream err) throws InterruptedException {
        for (int round = 1; ; round++) {
            Map<String, CpuUsage> warmed = new LinkedHashMap<>();
            for (Variant variant : variants) {
                CpuUsage.Meter meter = CpuUsage.start(stats);
                ConcurrentLoad.run(variant.label() + " warm-up " + round, config.readConcurrency(), Duration.ZERO,
                        config.readWarmup().plus(config.readDuration()), users, config.seed(), variant.clients(), err);
                warmed.put(variant.name(), meter.stop());
            }
            String busiest = warmed.entrySet().stream().max(Comparator.comparingDouble(entry -> entry.getValue().jitShare()))
                    .map(Map.Entry::getKey).orElseThrow();
            double share = warmed.get(busiest).jitShare();
            err.printf("%s: warm-up round %d, the JIT compiling up to %.0f %% of the time (%s)%n", prefix, round, share * 100,
                    busiest);
            if (share <= CpuUsage.COMPILING_SHARE || round == MAX_WARMUP_ROUNDS) return round;
        }
    }

    /**
     * What disturbed a repetition, or null: processes outside the bench during one pass of its slices (every variant's
     * slice of that number), or, over a variant's measurement, other processes or the JIT (see
     * {@link CpuUsage#disturbance()}).
     */
    static String disturbance(Map<String, List<Measurement>> sliced) {
        int slices = sliced.values().iterator().next().size();
        for (int slice = 0; slice < slices; slice++) {
            int index = slice;
            CpuUsage pass = CpuUsage.merge(sliced.values().stream().map(parts -> parts.get(index).cpu()).toList());
            if (pass.disturbed()) return pass.disturbance() + " in slice " + (slice + 1);
        }
        for (Map.Entry<String, List<Measurement>> variant : sliced.entrySet()) {
            String disturbance = CpuUsage.merge(variant.getValue().stream().map(Measurement::cpu).toList()).disturbance();
            if (disturbance != null) return disturbance + " in " + variant.getKey();
        }
        return null;
    }

    /** Each variant's rate, p99, the JVM's CPU per request and the JIT's share, for the log. */
    private static String summary(Map<String, Measurement> measured) {
        return measured.entrySet().stream().map(entry -> {
            Measurement m = entry.getValue();
            return String.format(Locale.ROOT, "%s %,.0f/s p99 %.2f ms %.0f µs JIT %.0f %%", entry.getKey(),
                    m.load().perSecond(), m.load().p99Millis(), m.javaMicrosPerRequest(), m.cpu().jitShare() * 100);
        }).collect(Collectors.joining(", "));
    }
}
