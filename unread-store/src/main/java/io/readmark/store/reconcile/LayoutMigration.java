package io.readmark.store.reconcile;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Converts every user still on the layout before z and h ({@code rm:{u:U}:unread:A}, {@code :counts}, {@code :marks},
 * {@code :merged}) to it, one script per user ({@code migrate_user.lua}), then applies the caps as a repair does
 * ({@code repair.lua}). SCAN passes over old counts hashes, unread sets, marks and merged indexes find every such
 * user. A converted user has no old keys left and a second conversion changes nothing, so a stopped run is resumed
 * by running it again.
 */
public final class LayoutMigration {

    /** Told after every SCAN batch how far the run is. */
    @FunctionalInterface
    public interface Listener {
        void progress(long keysScanned, long usersMigrated, String pass);
    }

    /** What a run did: users converted, entries and tombstones they got. */
    public record Report(long keysScanned, long usersMigrated, long entries, long tombstones) {
    }

    private static final int SCAN_COUNT = 1_000;
    /** A user whose authors keep changing between reading them and converting; only under heavy old-layout writes. */
    private static final int MAX_ATTEMPTS = 100;

    private final RedisConnections connections;
    private final RedisClusterAsyncCommands<String, String> redis;
    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final String maxMarks;
    private final String cap;
    private final String userCap;

    public LayoutMigration(RedisConnections connections, UnreadKeys keys, int maxUnreadPerAuthor, int maxUnreadPerUser, int maxMarksPerUser) {
        this.connections = connections;
        this.redis = connections.shared().async();
        this.keys = keys;
        this.noticeKeys = new NoticeKeys(keys.prefix());
        this.maxMarks = Integer.toString(maxMarksPerUser);
        this.cap = Integer.toString(maxUnreadPerAuthor);
        this.userCap = Integer.toString(maxUnreadPerUser);
    }

    public Report run(Listener listener) {
        long[] totals = new long[4]; // keys scanned, users, entries, tombstones
        connections.scan(keys.countsPattern(), SCAN_COUNT, batch -> {
            migrateAll(batch, keys::userOfCounts, totals, null);
            listener.progress(totals[0], totals[1], "counts");
        });
        connections.scan(keys.unreadPattern(), SCAN_COUNT, batch -> {
            for (String key : batch) {
                UnreadKeys.UnreadKey set = keys.parseUnread(key);
                totals[0]++;
                if (set != null) add(totals, migrate(set.userId(), Long.toString(set.authorId())));
            }
            listener.progress(totals[0], totals[1], "unread sets");
        });
        connections.scan(keys.marksPattern(), SCAN_COUNT, batch -> {
            migrateAll(batch, keys::userOfMarks, totals, null);
            listener.progress(totals[0], totals[1], "marks");
        });
        connections.scan(keys.mergedPattern(), SCAN_COUNT, batch -> {
            migrateAll(batch, keys::userOfMerged, totals, null);
            listener.progress(totals[0], totals[1], "merged indexes");
        });
        return new Report(totals[0], totals[1], totals[2], totals[3]);
    }

    private void migrateAll(List<String> batch, ToLongFunction<String> userOf, long[] totals, String author) {
        for (String key : batch) {
            totals[0]++;
            long user = userOf.applyAsLong(key);
            if (user > 0) add(totals, migrate(user, author));
        }
    }

    private static void add(long[] totals, long[] migrated) {
        if (migrated[0] == 0 && migrated[1] == 0) return;
        totals[1]++;
        totals[2] += migrated[0];
        totals[3] += migrated[1];
    }

    /**
     * Converts one user, reading the author fields again while a writer of the old layout adds authors, then applies
     * the caps. Returns {entries, tombstones} converted ({0, 0} for a user converted before).
     */
    long[] migrate(long user, String extraAuthor) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Set<String> authors = new LinkedHashSet<>();
            for (String field : redis.hkeys(keys.counts(user)).toCompletableFuture().join()) {
                if (UnreadKeys.id(field) > 0) authors.add(field);
            }
            if (extraAuthor != null) authors.add(extraAuthor);
            List<String> scriptKeys = new ArrayList<>(List.of(keys.counts(user), keys.marks(user), keys.merged(user),
                    keys.floors(user), keys.z(user), keys.h(user), noticeKeys.inbox(user), noticeKeys.noticeReads(user)));
            List<String> args = new ArrayList<>(List.of(maxMarks));
            for (String author : authors) {
                scriptKeys.add(keys.unread(user, Long.parseLong(author)));
                args.add(author);
            }
            List<Object> reply = ReconcileScript.MIGRATE_USER.call(redis, scriptKeys.toArray(String[]::new), args.toArray(String[]::new)).join();
            if ("stale".equals(reply.getFirst())) continue;
            long entries = (Long) reply.get(1), tombstones = (Long) reply.get(2);
            // Whenever old keys were found, also on a rerun after a stop between the two scripts.
            if ((Long) reply.get(3) == 1) {
                ReconcileScript.REPAIR.call(redis, new String[]{keys.h(user), keys.z(user), keys.floors(user), keys.live(user),
                        keys.changes(user)}, cap, userCap).join();
            }
            return new long[]{entries, tombstones};
        }
        throw new IllegalStateException("user " + user + " kept changing authors during " + MAX_ATTEMPTS + " conversions");
    }
}
