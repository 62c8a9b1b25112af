package io.readmark.reliability;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a soak: what was produced, which faults were survived, the final comparison with the model, the
 * audit of the dead-letter topic, and the rebuild and reconcile after Redis lost everything.
 *
 * @param topology       what Kafka and Redis the run had, in a line
 * @param leftOut        what this topology's run does not do that the other's does, each with why
 * @param faultsSurvived by fault name, e.g. {@code processor-crash → 6}
 * @param alertsConfirmed alerts Prometheus fired and resolved for their faults, by name; empty when none watched
 * @param failures       faults the system did not recover from, and a phase that did not finish
 * @param check          null if the state could not be read at all
 * @param pushes         the open streams' last pushes against the final state
 * @param badInputsTried bad records Kafka stored during the run
 * @param deadLetters    null if the dead-letter topic could not be read
 * @param redisLoss      null if the rebuild or the reconcile did not finish
 * @param noticesExpired broadcasts that had expired when the check began, so that it expected them gone
 * @param killsDuringFanout by fault name, its kills that fell while a big-V post's followers were still being fanned out
 */
public record SoakReport(long seed, String topology, List<String> leftOut, Duration workload, Duration elapsed, int processors,
                         long eventsProduced, Map<String, Integer> faultsSurvived, Map<String, Integer> alertsConfirmed,
                         List<String> failures, Duration drained,
                         CheckResult check, PushCheck pushes, long badInputsTried, DeadLetterAudit deadLetters,
                         RedisLossRecovery.Outcome redisLoss, long noticesExpired,
                         Map<String, Integer> killsDuringFanout, Path workDir) {

    public SoakReport {
        leftOut = List.copyOf(leftOut);
        killsDuringFanout = Map.copyOf(killsDuringFanout);
        faultsSurvived = Map.copyOf(faultsSurvived);
        alertsConfirmed = Map.copyOf(alertsConfirmed);
        failures = List.copyOf(failures);
    }

    /**
     * Every fault recovered from, the final state exactly the model's and every open stream's last push equal to it,
     * every bad record dead-lettered (and nothing else), and after Redis was lost the rebuilt state exactly the
     * model's again with no drift.
     */
    public boolean passed() {
        return failures.isEmpty() && check != null && check.exact() && pushes.exact() && deadLetters != null && deadLetters.exact()
                && deadLetters.deadLettered() == badInputsTried && redisLoss != null && redisLoss.exact() && redisLoss.cleanedUp();
    }

    public int survived(String fault) {
        return faultsSurvived.getOrDefault(fault, 0);
    }

    /** Kills of that fault that fell during a big-V fan-out; 0 for a fault that does not wait for one. */
    public int killedDuringFanout(String fault) {
        return killsDuringFanout.getOrDefault(fault, 0);
    }

    public void print(PrintStream out) {
        out.printf("""

                Soak %s (seed %d)
                  topology          %s
                  workload          %s, %d processor processes
                  events produced   %,d
                  faults survived   %s
                  during fan-out    %s
                  alerts confirmed  %s
                  drained in        %s
                  users checked     %s
                  entries expected  %s
                  notices expired   %,d
                  lost              %s
                  extra             %s
                  double-counted    %s
                  pushes checked    %s
                  bad inputs tried  %,d
                  dead-lettered     %s
                  rebuild           %s
                  reconcile         %s
                  took              %s
                """, passed() ? "PASSED" : "FAILED", seed, topology, minutesAndSeconds(workload), processors,
                eventsProduced, timesEach(faultsSurvived, "none"), duringFanout(), timesEach(alertsConfirmed, "no Prometheus watched"),
                drained == null ? "did not drain" : "%.1f s".formatted(drained.toMillis() / 1000.0),
                figure(check == null ? null : check.usersChecked()), figure(check == null ? null : check.entriesExpected()), noticesExpired,
                figure(check == null ? null : check.lost()), figure(check == null ? null : check.extra()),
                figure(check == null ? null : check.doubleCounted()), pushed(), badInputsTried, deadLettered(), rebuild(), reconcile(),
                minutesAndSeconds(elapsed));
        leftOut.forEach(line -> out.println("  left out: " + line));
        failures.forEach(failure -> out.println("  failure: " + failure));
        if (check != null) check.examples().forEach(example -> out.println("  difference: " + example));
        if (deadLetters != null) deadLetters.examples().forEach(example -> out.println("  dead letters: " + example));
        if (redisLoss != null) {
            redisLoss.check().examples().forEach(example -> out.println("  after the rebuild: " + example));
            redisLoss.reconcile().examples().forEach(drift -> out.println("  drift: " + drift));
        }
        if (!passed()) out.println("  processor logs in " + workDir);
    }

    /** {@code redis-master-failover 2 of 3} by fault: of its injections survived, how many fell during a fan-out. */
    private String duringFanout() {
        if (killsDuringFanout.isEmpty()) return "no fault waited for a big-V fan-out";
        return killsDuringFanout.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> "%s %d of %d".formatted(e.getKey(), e.getValue(), survived(e.getKey())))
                .reduce((a, b) -> a + ", " + b).orElseThrow() + " killed during a big-V fan-out";
    }

    private String pushed() {
        return "%d streams, %,d pushes, %,d streams opened; last push %s".formatted(pushes.users(), pushes.pushes(),
                pushes.streamsOpened(), pushes.exact() ? "equal to the final state for every user" : "DIFFERENT for " + pushes.differing() + " users");
    }

    private String deadLettered() {
        if (deadLetters == null) return "-";
        return "%,d (%,d copies%s)".formatted(deadLetters.deadLettered(), deadLetters.copies(),
                deadLetters.exact() ? "" : "; missing %,d, wrong category %,d, not a bad record %,d"
                        .formatted(deadLetters.missing(), deadLetters.wrongCategory(), deadLetters.unexpected()));
    }

    private String rebuild() {
        if (redisLoss == null) return "-";
        CheckResult after = redisLoss.check();
        return ("%,d records in %.1f s after FLUSHALL and a rebuild SIGKILLed an eighth of the way in (its leftovers removed: %d, left after: %d): "
                + "lost %,d, extra %,d, double-counted %,d").formatted(
                redisLoss.rebuild().records(), redisLoss.rebuild().elapsed().toMillis() / 1000.0,
                redisLoss.rebuild().leftoversRemoved().size(), redisLoss.leftovers().size(),
                after.lost(), after.extra(), after.doubleCounted());
    }

    private String reconcile() {
        if (redisLoss == null) return "-";
        return "%,d users scanned, drift %,d".formatted(redisLoss.reconcile().usersScanned(), redisLoss.reconcile().usersDrifted());
    }

    /** {@code a × 2, b × 1} by name, or {@code none} when empty. */
    private static String timesEach(Map<String, Integer> counts, String none) {
        return counts.isEmpty() ? none : counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + " × " + e.getValue()).reduce((a, b) -> a + ", " + b).orElseThrow();
    }

    /** {@code 3 min 05 s}, or {@code 45 s} under a minute. */
    static String minutesAndSeconds(Duration duration) {
        return duration.toMinutes() == 0 ? duration.toSeconds() + " s" : "%d min %02d s".formatted(duration.toMinutes(), duration.toSecondsPart());
    }

    private static String figure(Number value) {
        return value == null ? "-" : "%,d".formatted(value.longValue());
    }
}
