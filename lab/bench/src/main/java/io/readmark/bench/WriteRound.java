package io.readmark.bench;

import java.util.Locale;

/**
 * One repetition of the write phases: the ceiling, the naive baseline and the pipeline. The ceiling and the pipeline
 * have Redis run the same scripts for the same deliveries, so Redis's script time per delivery should be about the
 * same in both (a little more in the pipeline, whose JVM competes with Redis for the cores). Outside that band the
 * machine ran at another speed in one of the two phases, and the pipeline / ceiling ratio follows the machine rather
 * than the pipeline.
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

    /** The three rates, Redis's script time per delivery in the ceiling and the pipeline, and other processes' cores. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "ceiling %,.0f/s, naive %,.0f/s, pipeline %,.0f/s; Redis %.1f and %.1f µs per delivery"
                        + " (%.2f times); other processes %.2f, %.2f, %.2f cores", ceiling.perSecond(), naive.perSecond(),
                pipeline.perSecond(), scriptMicrosPerDelivery(ceiling), scriptMicrosPerDelivery(pipeline), redisCostRatio(),
                ceiling.cpu().otherCores(), naive.cpu().otherCores(), pipeline.cpu().otherCores());
    }

    private static double scriptMicrosPerDelivery(WriteMeasurement phase) {
        return phase.cpu().scriptMicros() / phase.deliveries();
    }
}
