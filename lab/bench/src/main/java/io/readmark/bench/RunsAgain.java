package io.readmark.bench;

import java.io.PrintStream;

/**
 * Whether a disturbed repetition (processes outside the bench, the JIT still compiling, see
 * {@link CpuUsage#disturbance()}, or the machine's speed changing between the write phases, see
 * {@link WriteRound#disturbance()}) is run again: on a shared machine a neighbour's burst otherwise decides a ratio's
 * range, and with it the verdict. At most as many extra runs as there are repetitions; once they are used up a
 * disturbed repetition is kept, and counted.
 */
final class RunsAgain {

    private final String phase;
    private final int allowed;
    private final PrintStream err;
    private int runAgain, disturbedKept, attempt;

    RunsAgain(String phase, int repetitions, PrintStream err) {
        this.phase = phase;
        this.allowed = repetitions;
        this.err = err;
    }

    /** For the recordings' names: "" for a repetition's first run, "-again<n>" for its n-th run again. */
    String attemptSuffix() {
        return attempt > 0 ? "-again" + attempt : "";
    }

    /** Whether {@code repetition}, just measured, is to be run again; {@code disturbance}: by what, null if nothing. */
    boolean shouldRunAgain(int repetition, String disturbance) {
        if (disturbance != null) {
            if (runAgain < allowed) {
                runAgain++;
                attempt++;
                err.printf("%s: repetition %d disturbed by %s, run again%n", phase, repetition, disturbance);
                return true;
            }
            disturbedKept++;
            err.printf("%s: repetition %d disturbed by %s, kept: no runs left%n", phase, repetition, disturbance);
        }
        attempt = 0;
        return false;
    }

    int repetitionsRunAgain() {
        return runAgain;
    }

    int disturbedKept() {
        return disturbedKept;
    }
}
