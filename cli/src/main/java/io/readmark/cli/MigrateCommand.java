package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.common.console.ProgressLine;
import io.readmark.store.reconcile.LayoutMigration;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code readmark migrate}: converts every user still on the Redis layout before z and h to it
 * ({@link LayoutMigration}), showing progress on stderr and printing what it did. A stopped run is resumed by running
 * it again. Exit status 0 when done, 2 when it could not run.
 */
final class MigrateCommand {

    static final int DONE = 0;
    static final int TROUBLE = 2;

    /** What migrate reads; a bad setting is an {@link IllegalArgumentException}. */
    record Config(RedisEndpoint redis, Duration redisTimeout, String redisPrefix, UnreadLimits limits, Duration progressInterval) {

        static Config from(Settings settings) {
            String prefix = settings.string("READMARK_REDIS_PREFIX", UnreadKeys.DEFAULT_PREFIX);
            new UnreadKeys(prefix); // a prefix no key name can have fails here, before Redis is asked
            return new Config(RedisEndpoint.from(settings), settings.duration("REDIS_TIMEOUT", Duration.ofSeconds(5)), prefix,
                    new UnreadLimits(
                            settings.positiveInteger("READMARK_MAX_UNREAD_PER_AUTHOR", UnreadLimits.DEFAULTS.maxUnreadPerAuthor()),
                            settings.positiveInteger("READMARK_MAX_UNREAD_PER_USER", UnreadLimits.DEFAULTS.maxUnreadPerUser()),
                            settings.positiveInteger("READMARK_MAX_READ_MARKS_PER_USER", UnreadLimits.DEFAULTS.maxMarksPerUser())),
                    RebuildCommand.progressInterval(settings));
        }
    }

    private MigrateCommand() {
    }

    static int run(Config config, PrintStream out, PrintStream err, boolean terminal) {
        ProgressLine progress = new ProgressLine(err, terminal, "migrate", "keys", config.progressInterval(), System::nanoTime);
        LayoutMigration.Report report;
        try (RedisConnections redis = RedisConnections.connect(config.redis(), config.redisTimeout(), false)) {
            UnreadLimits limits = config.limits();
            report = new LayoutMigration(redis, new UnreadKeys(config.redisPrefix()), limits.maxUnreadPerAuthor(),
                    limits.maxUnreadPerUser(), limits.maxMarksPerUser())
                    .run((keys, users, pass) -> progress.update(keys, ProgressLine.UNKNOWN_TOTAL,
                            String.format(Locale.ROOT, "%,d users converted (%s)", users, pass)));
        } catch (RuntimeException e) {
            progress.close();
            err.println("readmark: migrate failed: " + e.getMessage());
            return TROUBLE;
        }
        progress.close();
        out.printf(Locale.ROOT, "migrate: %,d users converted (%,d unread entries, %,d read marks), %,d keys scanned%n",
                report.usersMigrated(), report.entries(), report.tombstones(), report.keysScanned());
        return DONE;
    }
}
