package io.readmark.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Several read variants measured in turn, repetition after repetition (A B C, A B C, …) after unmeasured warm-up
 * rounds, each with the same {@link ConcurrentLoad}: on a shared, noisy machine a slow stretch then lowers one
 * repetition of every variant instead of all of one variant, and variants are compared within a repetition. Within a
 * repetition the variants also take turns slice by slice ({@link BenchConfig#readSlices()}: A B C A B C …, each
 * measurement the sum of its slices), so that a slow stretch of a few seconds lowers every variant of the repetition
 * alike instead of the one it fell on: with whole measurements, one such stretch moved a ratio from 0.96 to 0.80. Warm-up
 * rounds go on until the JIT is done compiling ({@link CpuUsage#compiling()}), at most {@value #MAX_WARMUP_ROUNDS}:
 * after a single round its compiler threads still took 10–30 % of a core through the first measured repetition,
 * which was then the slowest of every variant. Every measurement records the CPU beside it and, with
 * {@code BENCH_JFR}, its own recording {@code <prefix>-<variant>-<repetition>[-again<n>][-<slice>].jfr}. A repetition
 * {@linkplain CpuUsage#disturbance() disturbed} in any of its measurements (by processes outside the bench, or by the
 * JIT) is run again, up to as many extra times as there are repetitions. The results count the warm-up rounds, the
 * repetitions run again, and the disturbed ones kept because the extra runs were used up.
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
                for (Variant variant : variants) {
                    String label = variant.label() + " " + repetition + "/" + repetitions
                            + (slices > 1 ? " slice " + slice + "/" + slices : "");
                    long seed = config.seed() + (long) repetition * slices + slice; // the same users for every variant of a slice
                    String recording = prefix + "-" + variant.name() + "-" + repetition + runsAgain.attemptSuffix()
                            + (slices > 1 ? "-" + slice : "");
                    CpuUsage.Meter meter = CpuUsage.start(stats);
                    ConcurrentLoad.Result load = PhaseRecording.during(config.jfrDirectory(), recording, err,
                            () -> ConcurrentLoad.run(label, config.readConcurrency(), sliceWarmup, sliceDuration,
                                    users, seed, variant.clients(), err));
                    sliced.computeIfAbsent(variant.name(), name -> new ArrayList<>()).add(new Measurement(load, meter.stop()));
                }
            }
            Map<String, Measurement> round = new LinkedHashMap<>();
            sliced.forEach((variant, parts) -> round.put(variant, Measurement.merge(parts)));
            err.printf("%s repetition %d%s: %s%n", prefix, repetition, runsAgain.attemptSuffix(), summary(round));
            if (runsAgain.shouldRunAgain(repetition, disturbance(round))) {
                repetition--;
                continue;
            }
            round.forEach((variant, measurement) -> results.get(variant).add(measurement));
        }
        return new Results(results, warmupRounds, runsAgain.repetitionsRunAgain(), runsAgain.disturbedKept());
    }

    /**
     * Unmeasured rounds of every variant (the HTTP codecs, Jackson, Lettuce's decoder are cold right after the write
     * phases), until one ran with the JIT done compiling or {@value #MAX_WARMUP_ROUNDS} ran; returns how many ran.
     */
    private static int warmUp(BenchConfig config, String prefix, List<Variant> variants, int users, RedisStats stats,
                              PrintStream err) throws InterruptedException {
        for (int round = 1; ; round++) {
            CpuUsage.Meter meter = CpuUsage.start(stats);
            for (Variant variant : variants) {
                ConcurrentLoad.run(variant.label() + " warm-up " + round, config.readConcurrency(), Duration.ZERO,
                        config.readWarmup().plus(config.readDuration()), users, config.seed(), variant.clients(), err);
            }
            CpuUsage cpu = meter.stop();
            err.printf("%s: warm-up round %d, JIT compiling %.0f %% of the time%n", prefix, round, cpu.jitShare() * 100);
            if (!cpu.compiling() || round == MAX_WARMUP_ROUNDS) return round;
        }
    }

    /** What disturbed the first of a repetition's measurements that were (see {@link CpuUsage#disturbance()}), or null. */
    static String disturbance(Map<String, Measurement> round) {
        return round.entrySet().stream()
                .map(entry -> entry.getValue().cpu().disturbance() == null ? null
                        : entry.getValue().cpu().disturbance() + " in " + entry.getKey())
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    /** Each variant's rate, p99, the JVM's CPU per request and the JIT's share, for the log. */
    private static String summary(Map<String, Measurement> round) {
        return round.entrySet().stream().map(entry -> {
            Measurement m = entry.getValue();
            return String.format("%s %,.0f/s p99 %.2f ms %.0f µs JIT %.0f %%", entry.getKey(), m.load().perSecond(),
                    m.load().p99Millis(), m.javaMicrosPerRequest(), m.cpu().jitShare() * 100);
        }).collect(java.util.stream.Collectors.joining(", "));
    }
}
