package io.readmark.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Several read variants measured in turn, repetition after repetition (A B C, A B C, …) after one unmeasured round,
 * each with the same {@link ConcurrentLoad}: on a shared, noisy machine a slow stretch then lowers one repetition of
 * every variant instead of all of one variant, and variants are compared within a repetition. Every measurement records the CPU
 * beside it and, with {@code BENCH_JFR}, its own recording {@code <prefix>-<variant>-<repetition>[-again<n>].jfr}.
 * A repetition {@linkplain CpuUsage#disturbed() disturbed} by processes outside the bench in any of its measurements is
 * run again, up to as many extra times as there are repetitions. The results count the repetitions run again, and
 * the disturbed ones kept because the extra runs were used up.
 */
final class InterleavedLoad {

    /** One thing to measure: a short name (JSON, file names), a label for the progress line, and its clients. */
    record Variant(String name, String label, ConcurrentLoad.ClientFactory clients) {
    }

    /** One repetition of one variant. */
    record Measurement(ConcurrentLoad.Result load, CpuUsage cpu) {
        /** The JVM's CPU per answered request, in µs: the load generator's share is the same for every HTTP variant. */
        double javaMicrosPerRequest() {
            return cpu.javaCores() / load.perSecond() * 1e6;
        }
    }

    /**
     * The measurements of every variant, in the order the variants were given; how many repetitions were run again, and
     * how many disturbed ones are among the measurements.
     */
    record Results(Map<String, List<Measurement>> byVariant, int repetitionsRunAgain, int disturbedKept) {
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
        // One unmeasured round first: the first measurement of each variant otherwise ran on a cold JIT (the HTTP
        // codecs, Jackson, Lettuce's decoder) right after the write phases, and was the slowest of every run.
        for (Variant variant : variants) {
            ConcurrentLoad.run(variant.label() + " warm-up", config.readConcurrency(), Duration.ZERO,
                    config.readWarmup().plus(config.readDuration()), users, config.seed(), variant.clients(), err);
        }
        int repetitions = config.readRepetitions();
        RunsAgain runsAgain = new RunsAgain(prefix, repetitions, err);
        for (int repetition = 1; repetition <= repetitions; repetition++) {
            Map<String, Measurement> round = new LinkedHashMap<>();
            for (Variant variant : variants) {
                String label = variant.label() + " " + repetition + "/" + repetitions;
                long seed = config.seed() + repetition; // the same users for every variant of a repetition
                CpuUsage.Meter meter = CpuUsage.start(stats);
                ConcurrentLoad.Result load = PhaseRecording.during(config.jfrDirectory(),
                        prefix + "-" + variant.name() + "-" + repetition + runsAgain.attemptSuffix(), err,
                        () -> ConcurrentLoad.run(label, config.readConcurrency(), config.readWarmup(), config.readDuration(),
                                users, seed, variant.clients(), err));
                round.put(variant.name(), new Measurement(load, meter.stop()));
            }
            String others = round.values().stream().map(m -> String.format("%.2f", m.cpu().otherCores())).toList().toString();
            if (runsAgain.shouldRunAgain(repetition, disturbed(round.values()), others)) {
                repetition--;
                continue;
            }
            round.forEach((variant, measurement) -> results.get(variant).add(measurement));
        }
        return new Results(results, runsAgain.repetitionsRunAgain(), runsAgain.disturbedKept());
    }

    /** Whether other processes disturbed any of the measurements. */
    static boolean disturbed(java.util.Collection<Measurement> round) {
        return round.stream().anyMatch(measurement -> measurement.cpu().disturbed());
    }
}
