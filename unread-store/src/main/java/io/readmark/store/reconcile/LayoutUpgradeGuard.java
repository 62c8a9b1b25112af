package io.readmark.store.reconcile;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisRetry;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.WriteGuard;

import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;

/**
 * Converts a user still on the layout before z and h, as {@code readmark migrate} does ({@link LayoutMigration}),
 * before a writer of this release changes it: while an upgrade runs, a user not converted yet keeps its old keys
 * complete and unchanged, so a reader can answer it from them, and no write of this release lands beside them. A
 * converted user never gets old keys again (this release does not write them), so a user found converted is
 * remembered and costs nothing more. Used by one writer's thread; sends on the shared connection, as the conversion does.
 */
public final class LayoutUpgradeGuard implements WriteGuard {

    private static final Logger log = LoggerFactory.getLogger(LayoutUpgradeGuard.class);
    /**
     * Users remembered as converted; the set is emptied when it reaches this many, so a writer that meets millions of
     * users keeps a bounded heap. A forgotten user costs one EXISTS again, never a wrong answer.
     */
    private static final int MAX_KNOWN = 100_000;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final UnreadKeys keys;
    private final LayoutMigration migration;
    private final Set<Long> converted = new HashSet<>();
    private long conversions;

    public LayoutUpgradeGuard(RedisConnections connections, UnreadKeys keys, UnreadLimits limits) {
        this.keys = keys;
        this.migration = new LayoutMigration(connections, keys, limits.maxUnreadPerAuthor(), limits.maxUnreadPerUser(),
                limits.maxMarksPerUser());
        this.redis = connections.shared().async();
    }

    /**
     * Returns once no user of the call has old keys left. While Redis fails it retries with the writer's backoff, as a
     * failed write is retried, instead of failing the writer's thread.
     */
    @Override
    public void beforeWriting(long[] users) {
        List<Long> unknown = new ArrayList<>(users.length);
        for (long user : users) {
            if (!converted.contains(user)) unknown.add(user);
        }
        if (unknown.isEmpty()) return;
        Duration backoff = RedisRetry.FIRST;
        for (int retries = 0; ; retries++) {
            try {
                convert(unknown);
                if (retries > 0) log.info("converting users before their writes succeeded again after {} retries", retries);
                return;
            } catch (RedisException | CompletionException e) {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                if (!(cause instanceof RedisException)) throw e;
                log.atWarn().addKeyValue("users", unknown.size()).addKeyValue("error", cause.toString())
                        .addKeyValue("retryInMs", backoff.toMillis()).log("could not convert users before their writes, retrying");
                sleep(backoff);
                backoff = RedisRetry.after(backoff);
            }
        }
    }

    /**
     * One EXISTS of the old keys per user not remembered yet (an earlier attempt may have done some), all sent before
     * the first answer is awaited; a
     * conversion of each user that has any. The old unread sets need no look of their own: the previous release kept
     * each one's size in a field of counts.
     */
    private void convert(List<Long> users) {
        List<Long> left = users.stream().filter(user -> !converted.contains(user)).toList();
        List<RedisFuture<Long>> found = new ArrayList<>(left.size());
        for (long user : left) found.add(redis.exists(keys.counts(user), keys.marks(user), keys.merged(user)));
        for (int i = 0; i < left.size(); i++) {
            long user = left.get(i);
            if (found.get(i).toCompletableFuture().join() > 0) {
                migration.migrate(user, null);
                conversions++;
            }
            remember(user);
        }
    }

    private void remember(long user) {
        if (converted.size() >= MAX_KNOWN) converted.clear();
        converted.add(user);
    }

    /** How many users this guard converted. */
    long conversions() {
        return conversions;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to convert users before their writes", e);
        }
    }
}
