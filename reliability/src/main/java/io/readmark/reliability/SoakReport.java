package io.readmark.reliability;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a soak: what was produced, which faults were survived, and the final comparison with the model.
 *
 * @param faultsSurvived by fault name, e.g. {@code processor-crash → 6}
 * @param failures       faults the system did not recover from, and a drain that did not finish
 * @param check          null if the state could not be read at all
 */
public record SoakReport(long seed, Duration workload, Duration elapsed, int processors, long eventsProduced,
                         Map<String, Integer> faultsSurvived, List<String> failures, Duration drained,
                         CheckResult check, Path workDir) {

    public SoakReport {
        faultsSurvived = Map.copyOf(faultsSurvived);
        failures = List.copyOf(failures);
    }

    /** Every fault recovered from, and the final state exactly the model's. */
    public boolean passed() {
        return failures.isEmpty() && check != null && check.exact();
    }

    public int survived(String fault) {
        return faultsSurvived.getOrDefault(fault, 0);
    }

    public void print(PrintStream out) {
        out.printf("""

                Soak %s (seed %d)
                  workload          %s, %d processor processes
                  events produced   %,d
                  faults survived   %s
                  drained in        %s
                  users checked     %s
                  entries expected  %s
                  lost              %s
                  extra             %s
                  double-counted    %s
                  took              %s
                """, passed() ? "PASSED" : "FAILED", seed, minutesAndSeconds(workload), processors,
                eventsProduced, faultsSurvived.isEmpty() ? "none" : faultsSurvived.entrySet().stream().sorted(Map.Entry.comparingByKey())
                        .map(e -> e.getKey() + " × " + e.getValue()).reduce((a, b) -> a + ", " + b).orElseThrow(),
                drained == null ? "did not drain" : "%.1f s".formatted(drained.toMillis() / 1000.0),
                figure(check == null ? null : check.usersChecked()), figure(check == null ? null : check.entriesExpected()),
                figure(check == null ? null : check.lost()), figure(check == null ? null : check.extra()),
                figure(check == null ? null : check.doubleCounted()), minutesAndSeconds(elapsed));
        failures.forEach(failure -> out.println("  failure: " + failure));
        if (check != null) check.examples().forEach(example -> out.println("  difference: " + example));
        if (!passed()) out.println("  processor logs in " + workDir);
    }

    /** {@code 3 min 05 s}, or {@code 45 s} under a minute. */
    static String minutesAndSeconds(Duration duration) {
        return duration.toMinutes() == 0 ? duration.toSeconds() + " s" : "%d min %02d s".formatted(duration.toMinutes(), duration.toSecondsPart());
    }

    private static String figure(Number value) {
        return value == null ? "-" : "%,d".formatted(value.longValue());
    }
}
