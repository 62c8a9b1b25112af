package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.common.console.ProgressLine;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.processor.rebuild.RebuildSummary;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * {@code readmark rebuild}: repopulates Redis from Kafka with the stream processor's settings ({@link Rebuild}),
 * showing progress on stderr and printing a summary. Exit status 0 when done, 1 when it failed; stopped by Ctrl-C or
 * SIGTERM, it removes the temporary Kafka Streams applications first and the JVM exits with the signal's status (130,
 * 143). The applications are removed in every case.
 */
final class RebuildCommand {

    static final String PROGRESS_INTERVAL = "READMARK_PROGRESS_INTERVAL";
    static final int DONE = 0;
    static final int FAILED = 1;
    static final int CANCELLED = 130;

    private final Rebuild rebuild;
    private final Duration progressInterval;

    private RebuildCommand(Rebuild rebuild, Duration progressInterval) {
        this.rebuild = rebuild;
        this.progressInterval = progressInterval;
    }

    /** Reads the settings (a bad one is an {@link IllegalArgumentException}); connects to nothing yet. */
    static RebuildCommand from(Settings settings, Instant now) {
        ProcessorConfig config = ProcessorConfig.from(settings);
        return new RebuildCommand(new Rebuild(config, now), progressInterval(settings));
    }

    /** How often a progress line is printed when stderr is not a terminal. */
    static Duration progressInterval(Settings settings) {
        Duration interval = settings.duration(PROGRESS_INTERVAL, Duration.ofSeconds(10));
        if (interval.isNegative()) throw new IllegalArgumentException(PROGRESS_INTERVAL + " must not be negative, was " + interval);
        return interval;
    }

    /** Stops a running rebuild soon; {@link #run} then returns {@link #CANCELLED} (the status of a Ctrl-C). */
    void cancel() {
        rebuild.cancel();
    }

    /** Runs the rebuild: progress to {@code err} (redrawn in place when {@code terminal}), the summary to {@code out}. */
    int run(PrintStream out, PrintStream err, boolean terminal) throws InterruptedException {
        ProgressLine progress = new ProgressLine(err, terminal, "rebuild", "records", progressInterval, System::nanoTime);
        RebuildSummary summary;
        try {
            summary = rebuild.run((applied, total, pass) -> progress.update(applied, total, pass));
        } catch (Rebuild.CancelledException e) {
            progress.close();
            err.println("readmark: rebuild cancelled; its temporary applications " + String.join(", ", rebuild.applicationIds())
                    + " were removed. Redis holds what was applied so far; run the rebuild again to complete it.");
            return CANCELLED;
        } catch (RuntimeException e) {
            progress.close();
            err.println("readmark: rebuild failed: " + e.getMessage());
            return FAILED;
        }
        progress.close();
        printSummary(summary, out);
        return DONE;
    }

    static void printSummary(RebuildSummary summary, PrintStream out) {
        out.printf(Locale.ROOT, "rebuild done: %,d records in %s (%,.0f records/s)%n", summary.records(),
                ProgressLine.clock(summary.elapsed().toSeconds()),
                summary.recordsPerSecond());
        if (summary.skippedTotal() == 0) {
            out.println("no bad records");
        } else {
            out.printf(Locale.ROOT, "skipped %,d bad records (the processor dead-lettered each when it first read it):%n",
                    summary.skippedTotal());
            for (Map.Entry<String, Long> entry : summary.skipped().entrySet()) {
                out.printf(Locale.ROOT, "  %-40s %,d%n", entry.getKey(), entry.getValue());
            }
            summary.skippedExamples().forEach(example -> out.println("  e.g. " + example));
        }
        out.println("temporary applications removed: " + String.join(", ", summary.applicationIds()));
        if (!summary.leftoversRemoved().isEmpty()) {
            out.println("also removed what interrupted rebuilds left: " + String.join(", ", summary.leftoversRemoved()));
        }
        if (!summary.leftoversWithMembers().isEmpty()) {
            out.println("left for the next run (their groups still have members: running elsewhere, or killed less than "
                    + Rebuild.SESSION_TIMEOUT.toSeconds() + " s ago): " + String.join(", ", summary.leftoversWithMembers()));
        }
    }
}
