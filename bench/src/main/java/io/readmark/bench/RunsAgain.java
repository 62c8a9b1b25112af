package io.readmark.bench;

import java.io.PrintStream;

/**
 * Whether a repetition {@linkplain CpuUsage#disturbed() disturbed} by processes outside the bench is run again: on a
 * shared machine a neighbour's burst otherwise decides a ratio's range, and with it the verdict. At most as many
 * extra runs as there are repetitions; once they are used up a disturbed repetition is kept, and counted.
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

    /** Whether {@code repetition}, just measured, is to be run again; {@code others}: the outside cores, for the log. */
    boolean shouldRunAgain(int repetition, boolean disturbed, String others) {
        if (disturbed) {
            if (runAgain < allowed) {
                runAgain++;
                attempt++;
                err.printf("%s: repetition %d disturbed by other processes (%s cores), run again%n", phase, repetition, others);
                return true;
            }
            disturbedKept++;
            err.printf("%s: repetition %d disturbed by other processes (%s cores), kept: no runs left%n", phase, repetition, others);
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
