package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.common.console.ProgressLine;
import io.readmark.store.reconcile.Drift;
import io.readmark.store.reconcile.DriftKind;
import io.readmark.store.reconcile.ReconcileReport;
import io.readmark.store.reconcile.Reconciler;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * {@code readmark reconcile [--repair]}: checks every user's counts against their unread sets ({@link Reconciler}),
 * showing progress on stderr and printing a report. Exit status, like {@code diff}: 0 when no drift is left (none was
 * found, or {@code --repair} fixed all of it), 1 when drift remains, 2 when it could not run (a bad setting, Redis
 * unreachable).
 */
final class ReconcileCommand {

    static final String REPAIR = "RECONCILE_REPAIR";
    static final int CLEAN = 0;
    static final int DRIFT = 1;
    static final int TROUBLE = 2;

    /** What reconcile reads; a bad setting is an {@link IllegalArgumentException}. */
    record Config(RedisEndpoint redis, Duration redisTimeout, String redisPrefix, int maxUnreadPerAuthor, int maxUnreadPerUser, boolean repair,
                  Duration progressInterval) {

        static Config from(Settings settings) {
            String prefix = settings.string("READMARK_REDIS_PREFIX", UnreadKeys.DEFAULT_PREFIX);
            new UnreadKeys(prefix); // a prefix no key name can have fails here, before Redis is asked
            return new Config(
                    RedisEndpoint.from(settings),
                    settings.duration("REDIS_TIMEOUT", Duration.ofSeconds(5)),
                    prefix,
                    settings.positiveInteger("READMARK_MAX_UNREAD_PER_AUTHOR", UnreadLimits.DEFAULTS.maxUnreadPerAuthor()),
                    settings.positiveInteger("READMARK_MAX_UNREAD_PER_USER", UnreadLimits.DEFAULTS.maxUnreadPerUser()),
                    settings.bool(REPAIR, false),
                    RebuildCommand.progressInterval(settings));
        }
    }

    private ReconcileCommand() {
    }

    /** Runs a reconcile: progress to {@code err} (redrawn in place when {@code terminal}), the report to {@code out}. */
    static int run(Config config, PrintStream out, PrintStream err, boolean terminal) {
        ProgressLine progress = new ProgressLine(err, terminal, "reconcile", "keys", config.progressInterval(), System::nanoTime);
        ReconcileReport report;
        try (RedisConnections redis = RedisConnections.connect(config.redis(), config.redisTimeout(), false)) {
            report = new Reconciler(redis, new UnreadKeys(config.redisPrefix()), config.maxUnreadPerAuthor(), config.maxUnreadPerUser()).run(config.repair(),
                    (keys, users, drifted, pass) -> progress.update(keys, ProgressLine.UNKNOWN_TOTAL,
                            String.format(Locale.ROOT, "%,d users, %,d drifted (%s)", users, drifted, pass)));
        } catch (RuntimeException e) {
            progress.close();
            err.println("readmark: reconcile failed: " + e.getMessage());
            return TROUBLE;
        }
        progress.close();
        printReport(report, out);
        return report.clean() ? CLEAN : DRIFT;
    }

    static void printReport(ReconcileReport report, PrintStream out) {
        double seconds = report.elapsed().toNanos() / 1e9;
        out.printf(Locale.ROOT, "reconcile: %,d users (%,d keys) in %.1f s, %,.0f users/s%n", report.usersScanned(),
                report.keysScanned(), seconds, report.usersPerSecond());
        if (report.ignoredKeys() > 0) {
            out.printf(Locale.ROOT, "ignored %,d keys that match the patterns but are not this prefix's key names%n",
                    report.ignoredKeys());
        }
        if (report.usersDrifted() == 0) {
            out.println("no drift: every user's counts and records agree with their unread entries");
            return;
        }
        out.printf(Locale.ROOT, "drift: %,d users%n", report.usersDrifted());
        for (Map.Entry<DriftKind, Long> kind : report.usersByKind().entrySet()) {
            out.printf(Locale.ROOT, "  %-14s %,d users%n", kind.getKey().label(), kind.getValue());
        }
        out.println("examples:");
        for (Drift drift : report.examples()) out.println("  " + drift.describe());
        if (report.repaired()) {
            out.printf(Locale.ROOT, "repaired: %,d of %,d users, and a re-check found them clean%n", report.usersRepaired(),
                    report.usersDrifted());
            if (!report.clean()) {
                out.println("not repaired (a key of the wrong type, or a user whose authors kept changing): run again, or look at the examples");
            }
        } else {
            out.println("run with --repair to make their records and counts agree with their unread entries again");
        }
    }
}
