package io.readmark.processor.rebuild;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a rebuild did: the records it replayed (those retained when it started), how long it took, the bad records
 * it skipped ({@code "<topic> <reason>"} → count, and a few examples with their coordinates), the temporary
 * Kafka Streams applications it ran and removed again, what earlier interrupted rebuilds had left and this one removed,
 * and those it left because their groups still had members (running elsewhere, or killed moments ago).
 */
public record RebuildSummary(long records, Duration elapsed, Map<String, Long> skipped, List<String> skippedExamples,
                             List<String> applicationIds, List<String> leftoversRemoved, List<String> leftoversWithMembers) {

    public long skippedTotal() {
        return skipped.values().stream().mapToLong(Long::longValue).sum();
    }

    public double recordsPerSecond() {
        double seconds = elapsed.toNanos() / 1e9;
        return seconds > 0 ? records / seconds : 0;
    }
}
