package io.readmark.store.reconcile;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * Checks every user under a prefix against the layout's invariants (counters.lua), and with repair makes drifted
 * users' records, z and counts agree again. SCAN passes stream the keyspace (memory grows with drifted users, not with
 * users): one over h hashes checks each user completely, one over z sets finds users without h, which the first
 * cannot see, and two over notice inboxes and floors check the notices of users without h. Each user is checked by
 * read-only scripts ({@code check.lua}, {@code check_notices.lua}) over that user's keys, so writes of a live processor
 * land wholly before or after each and cause no false drift; a user's keys are bounded by the caps, so is each
 * script's work. Key names are built here and passed in KEYS, and all keys of a user share its hash tag, so this works
 * on Redis Cluster (where each master is scanned). A batch of SCAN results is checked in one pipelined round trip.
 */
public final class Reconciler {

    /** Told after every SCAN batch how far the run is, and of every finding. */
    @FunctionalInterface
    public interface Listener {
        void progress(long keysScanned, long usersScanned, long usersDrifted, String pass);

        default void found(Drift drift) {
        }
    }

    private static final int SCAN_COUNT = 1_000;
    private static final int MAX_EXAMPLES = 10;
    private static final Set<DriftKind> NOTICE_KINDS = EnumSet.of(DriftKind.WRONG_NOTICES, DriftKind.WRONG_NOTICE_FLOOR);

    private final RedisClusterAsyncCommands<String, String> redis;
    private final RedisConnections connections;
    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final String cap;
    private final String userCap;

    public Reconciler(RedisConnections connections, UnreadKeys keys, int maxUnreadPerAuthor, int maxUnreadPerUser) {
        this.connections = connections;
        this.redis = connections.shared().async();
        this.keys = keys;
        this.noticeKeys = new NoticeKeys(keys.prefix());
        this.cap = Integer.toString(maxUnreadPerAuthor);
        this.userCap = Integer.toString(maxUnreadPerUser);
        try {
            for (ReconcileScript script : ReconcileScript.values()) connections.shared().sync().scriptLoad(script.body());
        } catch (io.lettuce.core.RedisException e) {
            // Not fatal: the first EVALSHA that misses falls back to EVAL.
        }
    }

    /** What one run found; drifted users are remembered (kinds, repaired) so each is reported once. */
    private final class Run {
        final boolean repair;
        final Listener listener;
        final long startNanos = System.nanoTime();
        final Map<Long, Set<DriftKind>> drifted = new HashMap<>();
        final Set<Long> repaired = new LinkedHashSet<>();
        final List<Drift> examples = new ArrayList<>();
        long usersScanned;
        long keysScanned;
        long ignoredKeys;

        Run(boolean repair, Listener listener) {
            this.repair = repair;
            this.listener = listener;
        }

        void found(long user, List<Drift> findings) {
            if (findings.isEmpty()) return;
            Set<DriftKind> kinds = drifted.computeIfAbsent(user, u -> EnumSet.noneOf(DriftKind.class));
            for (Drift drift : findings) {
                listener.found(drift);
                kinds.add(drift.kind());
                if (examples.size() < MAX_EXAMPLES) examples.add(drift);
            }
            if (!repair) return;
            // Only the notices' fields drifted: setting those right leaves the user's entries alone.
            boolean noticesOnly = findings.stream().allMatch(drift -> NOTICE_KINDS.contains(drift.kind()));
            if (noticesOnly ? repairNotices(user) : repairUser(user)) {
                repaired.add(user);
            } else {
                repaired.remove(user);
            }
        }

        ReconcileReport report() {
            Map<DriftKind, Long> byKind = new EnumMap<>(DriftKind.class);
            drifted.values().forEach(kinds -> kinds.forEach(kind -> byKind.merge(kind, 1L, Long::sum)));
            return new ReconcileReport(usersScanned, keysScanned, ignoredKeys, byKind, drifted.size(), repair,
                    repaired.size(), List.copyOf(examples), Duration.ofNanos(System.nanoTime() - startNanos));
        }
    }

    /** Checks every user under the prefix; with {@code repair}, repairs and re-checks each drifted user at once. */
    public ReconcileReport run(boolean repair, Listener listener) {
        Run run = new Run(repair, listener);
        connections.scan(keys.hPattern(), SCAN_COUNT, batch -> {
            checkUsers(run, batch);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "h");
        });
        connections.scan(keys.zPattern(), SCAN_COUNT, batch -> {
            checkOthers(run, batch, keys::userOfZ, user -> new String[]{keys.h(user)}, false);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "z");
        });
        connections.scan(noticeKeys.inboxPattern(), SCAN_COUNT, batch -> {
            checkOthers(run, batch, noticeKeys::userOfInbox, user -> new String[]{keys.h(user), keys.z(user)}, true);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "notice inboxes");
        });
        connections.scan(keys.floorsPattern(), SCAN_COUNT, batch -> {
            checkOthers(run, batch, keys::userOfFloors, user -> new String[]{keys.h(user), keys.z(user), noticeKeys.inbox(user)}, true);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "floors");
        });
        return run.report();
    }

    /** Pass 1: every user with h, completely, a batch's checks pipelined. */
    private void checkUsers(Run run, List<String> hKeys) {
        run.keysScanned += hKeys.size();
        List<Long> users = new ArrayList<>(hKeys.size());
        for (String key : hKeys) {
            long user = keys.userOfH(key);
            if (user < 0) {
                run.ignoredKeys++;
            } else {
                users.add(user);
            }
        }
        run.usersScanned += users.size();
        List<CompletableFuture<List<Object>>> checks = users.stream().map(this::check).toList();
        List<CompletableFuture<List<Object>>> notices = users.stream().map(user -> checkNotices(user, false)).toList();
        for (int i = 0; i < users.size(); i++) {
            List<Drift> findings = new ArrayList<>(findings(users.get(i), checks.get(i).join()));
            findings.addAll(findings(users.get(i), notices.get(i).join()));
            run.found(users.get(i), findings);
        }
    }

    /**
     * Later passes: each user of the scanned keys who has none of the keys {@code checkedElsewhere} names (an earlier
     * pass checked those users): their notices, and with {@code noticesOnly} false the user too; a batch's lookups
     * and checks pipelined, as after an all-read most users may qualify.
     */
    private void checkOthers(Run run, List<String> scanned, ToLongFunction<String> userOf, LongFunction<String[]> checkedElsewhere,
                             boolean noticesOnly) {
        run.keysScanned += scanned.size();
        Map<Long, CompletableFuture<Long>> elsewhere = new LinkedHashMap<>();
        for (String key : scanned) {
            long user = userOf.applyAsLong(key);
            if (user < 0) {
                run.ignoredKeys++;
            } else {
                elsewhere.put(user, redis.exists(checkedElsewhere.apply(user)).toCompletableFuture());
            }
        }
        Map<Long, List<CompletableFuture<List<Object>>>> checks = new LinkedHashMap<>();
        elsewhere.forEach((user, exists) -> {
            if (exists.join() != 0 || run.drifted.containsKey(user)) return;
            checks.put(user, noticesOnly ? List.of(checkNotices(user, false)) : List.of(check(user), checkNotices(user, false)));
        });
        checks.forEach((user, replies) -> {
            List<Drift> findings = new ArrayList<>();
            replies.forEach(reply -> findings.addAll(findings(user, reply.join())));
            if (!findings.isEmpty() && !noticesOnly) run.usersScanned++;
            run.found(user, findings);
        });
    }

    /**
     * The notices count against the inbox, and the audiences hash's copy of the notice floor against the floors
     * ({@code check_notices.lua}); with {@code repair}, set right.
     */
    private CompletableFuture<List<Object>> checkNotices(long user, boolean repair) {
        return ReconcileScript.CHECK_NOTICES.call(redis, new String[]{keys.h(user), keys.floors(user),
                noticeKeys.inbox(user), noticeKeys.noticeReads(user), noticeKeys.audiences(user)}, repair ? "repair" : "check");
    }

    private CompletableFuture<List<Object>> check(long user) {
        return ReconcileScript.CHECK.call(redis, new String[]{keys.h(user), keys.z(user), keys.floors(user)}, cap, userCap);
    }

    /** Repairs one user's notices, then checks them again; true when they are clean now. */
    private boolean repairNotices(long user) {
        checkNotices(user, true).join();
        return checkNotices(user, false).join().isEmpty();
    }

    /** Repairs one user with {@code repair.lua} and their notices, then checks again; true when the user is clean now. */
    private boolean repairUser(long user) {
        List<Object> reply = ReconcileScript.REPAIR.call(redis, new String[]{keys.h(user), keys.z(user), keys.floors(user),
                keys.live(user), keys.changes(user)}, cap, userCap).join();
        if (!"repaired".equals(reply.getFirst())) return false; // wrong-type: left for an operator to look at
        checkNotices(user, true).join();
        return check(user).join().isEmpty() && checkNotices(user, false).join().isEmpty();
    }

    private static List<Drift> findings(long user, List<Object> reply) {
        List<Drift> findings = new ArrayList<>(reply.size() / 4);
        for (int i = 0; i + 3 < reply.size(); i += 4) {
            findings.add(new Drift(user, DriftKind.ofLabel((String) reply.get(i)), (String) reply.get(i + 1),
                    (String) reply.get(i + 2), (String) reply.get(i + 3)));
        }
        return findings;
    }
}
