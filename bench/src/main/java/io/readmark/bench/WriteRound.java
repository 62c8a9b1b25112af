package io.readmark.bench;

import java.util.Locale;

/**
 * One repetition of the write phases: the ceiling, the naive baseline and the pipeline. The ceiling and the pipeline
 * have Redis run the same scripts for the same deliveries, so Redis's script time per delivery is about the same in
 * both (the pipeline's 1.0–1.22 times the ceiling's in quiet repetitions on this project's 2-core machine, its JVM
 * busy on the other core). Far outside that the machine itself ran at another speed in one of the two: in such
 * repetitions the pipeline's cost was 0.81–1.73 times the ceiling's, and their pipeline / ceiling ratio was decided
 * by that (0.57 to 1.23) rather than by the pipeline.
 */
record WriteRound(CeilingPhase.Result ceiling, NaivePhase.Result naive, PipelinePhase.Result pipeline) {

    /** The band of {@link #redisCostRatio()} within which both phases saw a machine of the same speed. */
    static final double MIN_REDIS_COST_RATIO = 0.9, MAX_REDIS_COST_RATIO = 1.45;

    /** Redis's script time per delivery in the pipeline over that in the ceiling (NaN when no script time is known). */
    double redisCostRatio() {
        return scriptMicrosPerDelivery(pipeline) / scriptMicrosPerDelivery(ceiling);
    }

    /**
     * Why this repetition does not compare the pipeline with the ceiling on one machine, or null: processes outside the
     * bench took more than a quarter of a core in one of its phases, or Redis ran the same scripts at speeds outside
     * the band.
     */
    String disturbance() {
        if (ceiling.cpu().disturbed()) return ceiling.cpu().disturbance() + " in the ceiling";
        if (naive.cpu().disturbed()) return naive.cpu().disturbance() + " in the naive baseline";
        if (pipeline.cpu().disturbed()) return pipeline.cpu().disturbance() + " in the pipeline";
        double ratio = redisCostRatio();
        if (ratio < MIN_REDIS_COST_RATIO || ratio > MAX_REDIS_COST_RATIO) {
            return String.format(Locale.ROOT, "a change of the machine's speed (Redis %.1f µs per delivery in the pipeline, %.1f in the ceiling)",
                    scriptMicrosPerDelivery(pipeline), scriptMicrosPerDelivery(ceiling));
        }
        return null;
    }

    private static double scriptMicrosPerDelivery(WriteMeasurement phase) {
        return phase.cpu().scriptMicros() / phase.deliveries();
    }
}
