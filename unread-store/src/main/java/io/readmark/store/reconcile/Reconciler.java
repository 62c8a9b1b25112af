package io.readmark.store.reconcile;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
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
 * Checks DESIGN invariants 1 and 2 and the merged index for every user under a prefix, and with repair makes drifted
 * users' counts and merged index agree with their unread sets again. SCAN passes stream the keyspace (memory grows
 * with drifted users, not with users): one over counts hashes checks each user completely, one over unread sets
 * finds sets without their count, one over merged indexes finds those of users without counts, which the first two
 * cannot see, and two over notice inboxes and floors check the notices of users without counts. Each user is checked
 * by read-only scripts ({@code check.lua}, {@code check_notices.lua}) over that user's keys, so writes of a live
 * processor land wholly before or after each and cause no false drift; key names are built here and passed in KEYS,
 * and all keys of a user share its hash tag, so this works on Redis Cluster (where each master is scanned).
 * Checks are pipelined: one batch of SCAN results at a time, a round trip for the field names and one for the checks
 * (in the second pass a HEXISTS per set, and the script only for a set that looks uncounted), then the merged index
 * entry by entry in slices ({@link MergedIndexCheck}), so no script's work grows with a user's entries.
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
    /** A user whose author fields keep changing between reading them and checking; only a hot user under heavy writes. */
    private static final int MAX_ATTEMPTS = 100;
    private static final String USER = "user";
    private static final String SETS = "sets";
    private static final Set<DriftKind> NOTICE_KINDS = EnumSet.of(DriftKind.WRONG_NOTICES, DriftKind.WRONG_NOTICE_FLOOR);

    private final RedisClusterAsyncCommands<String, String> redis;
    private final RedisConnections connections;
    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final String cap;
    private final MergedIndexCheck merged;

    public Reconciler(RedisConnections connections, UnreadKeys keys, int maxUnreadPerAuthor) {
        this.connections = connections;
        this.redis = connections.shared().async();
        this.keys = keys;
        this.noticeKeys = new NoticeKeys(keys.prefix());
        this.cap = Integer.toString(maxUnreadPerAuthor);
        this.merged = new MergedIndexCheck(redis, keys);
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

        void found(long user, List<Drift> findings, Set<String> extraAuthors) {
            if (findings.isEmpty()) return;
            Set<DriftKind> kinds = drifted.computeIfAbsent(user, u -> EnumSet.noneOf(DriftKind.class));
            for (Drift drift : findings) {
                listener.found(drift);
                kinds.add(drift.kind());
                if (examples.size() < MAX_EXAMPLES) examples.add(drift);
            }
            if (!repair) return;
            // Only the notices' fields drifted: setting those right leaves the user's sets and merged index alone.
            boolean noticesOnly = findings.stream().allMatch(drift -> NOTICE_KINDS.contains(drift.kind()));
            if (noticesOnly ? repairNotices(user) : repairUser(user, extraAuthors)) {
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
        connections.scan(keys.countsPattern(), SCAN_COUNT, batch -> {
            checkUsers(run, batch);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "counts");
        });
        connections.scan(keys.unreadPattern(), SCAN_COUNT, batch -> {
            checkSets(run, batch);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "unread sets");
        });
        connections.scan(keys.mergedPattern(), SCAN_COUNT, batch -> {
            checkMerged(run, batch);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "merged indexes");
        });
        connections.scan(noticeKeys.inboxPattern(), SCAN_COUNT, batch -> {
            checkInboxes(run, batch);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "notice inboxes");
        });
        connections.scan(keys.floorsPattern(), SCAN_COUNT, batch -> {
            checkFloors(run, batch);
            listener.progress(run.keysScanned, run.usersScanned, run.drifted.size(), "floors");
        });
        return run.report();
    }

    /** Pass 1: every user with a counts hash, completely. */
    private void checkUsers(Run run, List<String> countsKeys) {
        run.keysScanned += countsKeys.size();
        List<Long> users = new ArrayList<>(countsKeys.size());
        for (String key : countsKeys) {
            long user = keys.userOfCounts(key);
            if (user < 0) {
                run.ignoredKeys++;
            } else {
                users.add(user);
            }
        }
        run.usersScanned += users.size();
        List<CompletableFuture<List<String>>> fields = users.stream()
                .map(user -> redis.hkeys(keys.counts(user)).toCompletableFuture()).toList();
        List<CompletableFuture<List<Object>>> checks = new ArrayList<>(users.size());
        for (int i = 0; i < users.size(); i++) {
            checks.add(check(users.get(i), authorFields(fields.get(i).join()), USER));
        }
        // A user whose index and sets agree in size is compared entry by entry, pipelined with the batch's others;
        // one that disagrees (or changed authors meanwhile) is checked on its own, which also looks for authors
        // the index names beyond the count fields.
        Map<Long, Checked> checked = new LinkedHashMap<>();
        Map<Long, List<String>> compare = new HashMap<>();
        for (int i = 0; i < users.size(); i++) {
            long user = users.get(i);
            List<Object> reply = checks.get(i).join();
            List<Drift> findings = isStale(reply) ? null : findings(user, reply);
            if (findings == null || hasMergedSize(findings)) {
                checked.put(user, checkNow(user, Set.of()));
            } else {
                checked.put(user, new Checked(new ArrayList<>(findings), Set.of()));
                if (!hasWrongType(findings)) compare.put(user, authorFields(fields.get(i).join()));
            }
        }
        merged.compareEntries(compare).forEach((user, findings) -> checked.get(user).findings().addAll(findings));
        List<CompletableFuture<List<Object>>> notices = users.stream().map(user -> checkNotices(user, false)).toList();
        for (int i = 0; i < users.size(); i++) checked.get(users.get(i)).findings().addAll(findings(users.get(i), notices.get(i).join()));
        checked.forEach((user, result) -> run.found(user, result.findings(), result.authors()));
    }

    /** Pass 2: every unread set, only whether it has its count (pass 1 checked the sets it could see). */
    private void checkSets(Run run, List<String> unreadKeys) {
        run.keysScanned += unreadKeys.size();
        List<UnreadKeys.UnreadKey> sets = new ArrayList<>(unreadKeys.size());
        for (String key : unreadKeys) {
            UnreadKeys.UnreadKey set = keys.parseUnread(key);
            if (set == null) {
                run.ignoredKeys++;
            } else {
                sets.add(set);
            }
        }
        // Almost every set has its count: a plain HEXISTS says so at a fraction of a script's cost. Only a set that
        // looks uncounted is checked by the script, atomically, so a write in between is never reported as drift.
        List<CompletableFuture<Boolean>> counted = sets.stream()
                .map(set -> redis.hexists(keys.counts(set.userId()), Long.toString(set.authorId())).toCompletableFuture()
                        .exceptionally(error -> false)).toList();
        List<CompletableFuture<List<Object>>> checks = new ArrayList<>(sets.size());
        for (int i = 0; i < sets.size(); i++) {
            UnreadKeys.UnreadKey set = sets.get(i);
            checks.add(counted.get(i).join() ? null : check(set.userId(), List.of(Long.toString(set.authorId())), SETS));
        }
        for (int i = 0; i < sets.size(); i++) {
            if (checks.get(i) == null) continue;
            UnreadKeys.UnreadKey set = sets.get(i);
            List<Drift> findings = findings(set.userId(), checks.get(i).join());
            // A user with sets but no counts hash was not among pass 1's users.
            if (!findings.isEmpty() && !run.drifted.containsKey(set.userId())
                    && findings.stream().anyMatch(d -> d.kind() == DriftKind.ORPHAN_SET)) {
                run.usersScanned++;
            }
            run.found(set.userId(), findings, Set.of(Long.toString(set.authorId())));
        }
    }

    /**
     * Pass 3: merged indexes of users without counts. A user the scripts wrote has both or neither, and every user with
     * counts was checked in pass 1 and every one with an uncounted set in pass 2.
     */
    private void checkMerged(Run run, List<String> mergedKeys) {
        run.keysScanned += mergedKeys.size();
        List<Long> users = new ArrayList<>(mergedKeys.size());
        for (String key : mergedKeys) {
            long user = keys.userOfMerged(key);
            if (user < 0) {
                run.ignoredKeys++;
            } else {
                users.add(user);
            }
        }
        List<CompletableFuture<Long>> counted = users.stream()
                .map(user -> redis.exists(keys.counts(user)).toCompletableFuture().exceptionally(error -> 1L)).toList();
        for (int i = 0; i < users.size(); i++) {
            long user = users.get(i);
            if (counted.get(i).join() > 0 || run.drifted.containsKey(user)) continue;
            Checked checked = checkNow(user, Set.of());
            if (!checked.findings().isEmpty()) run.usersScanned++;
            run.found(user, checked.findings(), checked.authors());
        }
    }

    /** Pass 4: every notice inbox of a user without counts (pass 1 checked the others' notices). */
    private void checkInboxes(Run run, List<String> inboxKeys) {
        checkNoticesOfOthers(run, inboxKeys, noticeKeys::userOfInbox, user -> new String[]{keys.counts(user)});
    }

    /** Pass 5: the notice floor's copy of every user with floors but neither counts nor an inbox (passes 1 and 4 checked the others'). */
    private void checkFloors(Run run, List<String> floorsKeys) {
        checkNoticesOfOthers(run, floorsKeys, keys::userOfFloors, user -> new String[]{keys.counts(user), noticeKeys.inbox(user)});
    }

    /**
     * The notices of each user of the scanned keys who has none of the keys {@code checkedElsewhere} names (an earlier
     * pass checked those users); a batch's lookups and checks pipelined, as after an all-read most users may qualify.
     */
    private void checkNoticesOfOthers(Run run, List<String> scanned, ToLongFunction<String> userOf,
                                      LongFunction<String[]> checkedElsewhere) {
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
        Map<Long, CompletableFuture<List<Object>>> checks = new LinkedHashMap<>();
        elsewhere.forEach((user, exists) -> {
            if (exists.join() == 0) checks.put(user, checkNotices(user, false));
        });
        checks.forEach((user, check) -> run.found(user, findings(user, check.join()), Set.of()));
    }

    /**
     * counts.notices against the inbox, and the audiences hash's copy of the notice floor against the floors
     * ({@code check_notices.lua}); with {@code repair}, set right.
     */
    private CompletableFuture<List<Object>> checkNotices(long user, boolean repair) {
        return ReconcileScript.CHECK_NOTICES.call(redis, new String[]{keys.counts(user), keys.floors(user),
                noticeKeys.inbox(user), noticeKeys.noticeReads(user), noticeKeys.audiences(user)}, repair ? "repair" : "check");
    }

    /** What a complete check of a user found, and the authors beyond the count fields it had to pass. */
    private record Checked(List<Drift> findings, Set<String> authors) {
    }

    /**
     * A full check of one user, reading the author fields again for as long as writers keep adding authors. When the
     * merged index's size differs from the sets', the authors it names are passed too (their sets may lack a count,
     * which is not a stray in the index) and the user checked again; when the sizes agree, entry by entry.
     */
    private Checked checkNow(long user, Set<String> extraAuthors) {
        Set<String> extra = new LinkedHashSet<>(extraAuthors);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            List<String> authors = authorsOf(user, extra);
            List<Object> reply = check(user, authors, USER).join();
            if (isStale(reply)) continue;
            List<Drift> findings = new ArrayList<>(findings(user, reply));
            if (hasMergedSize(findings)) {
                Set<String> named = merged.authorsNamed(user);
                named.removeAll(authors);
                if (extra.addAll(named)) continue;
            } else if (!hasWrongType(findings)) {
                findings.addAll(merged.compareEntries(Map.of(user, authors)).getOrDefault(user, List.of()));
            }
            return new Checked(findings, Set.copyOf(extra));
        }
        throw new IllegalStateException("user " + user + " kept changing authors during " + MAX_ATTEMPTS + " checks");
    }

    /** A key of another type ended the check early; its sets cannot be read as sorted sets. */
    private static boolean hasWrongType(List<Drift> findings) {
        return findings.stream().anyMatch(drift -> drift.kind() == DriftKind.WRONG_TYPE);
    }

    /** The merged index holds another number of entries than the sets passed to the check. */
    private static boolean hasMergedSize(List<Drift> findings) {
        return findings.stream().anyMatch(drift -> drift.kind() == DriftKind.WRONG_MERGED && drift.field().equals("merged"));
    }

    /** Repairs one user with {@code repair.lua}, then checks it again; true when it is clean now. */
    private boolean repairNotices(long user) {
        checkNotices(user, true).join();
        return checkNotices(user, false).join().isEmpty();
    }

    private boolean repairUser(long user, Set<String> extraAuthors) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            List<String> authors = authorsOf(user, extraAuthors);
            String[] scriptKeys = new String[authors.size() + 5];
            scriptKeys[0] = keys.counts(user);
            scriptKeys[1] = keys.floors(user);
            scriptKeys[2] = keys.merged(user);
            String[] args = new String[authors.size() + 1];
            args[0] = cap;
            for (int i = 0; i < authors.size(); i++) {
                scriptKeys[i + 3] = keys.unread(user, Long.parseLong(authors.get(i)));
                args[i + 1] = authors.get(i);
            }
            scriptKeys[authors.size() + 3] = keys.live(user);
            scriptKeys[authors.size() + 4] = keys.changes(user);
            List<Object> reply = ReconcileScript.REPAIR.call(redis, scriptKeys, args).join();
            if (isStale(reply)) continue;
            if (!"repaired".equals(reply.getFirst())) return false; // wrong-type: left for an operator to look at
            merged.rebuild(user, authors);
            checkNotices(user, true).join();
            return checkNow(user, extraAuthors).findings().isEmpty() && checkNotices(user, false).join().isEmpty();
        }
        return false;
    }

    private List<String> authorsOf(long user, Set<String> extraAuthors) {
        Set<String> authors = new LinkedHashSet<>(authorFields(redis.hkeys(keys.counts(user)).toCompletableFuture().join()));
        authors.addAll(extraAuthors);
        return List.copyOf(authors);
    }

    /** The counts fields that name authors; the scripts treat every other field (total and seen aside) as junk. */
    private static List<String> authorFields(List<String> fields) {
        return fields.stream().filter(field -> UnreadKeys.id(field) > 0).toList();
    }

    private CompletableFuture<List<Object>> check(long user, Collection<String> authors, String mode) {
        String[] scriptKeys = new String[authors.size() + 3];
        String[] args = new String[authors.size() + 2];
        scriptKeys[0] = keys.counts(user);
        scriptKeys[1] = keys.merged(user);
        scriptKeys[2] = keys.floors(user);
        args[0] = cap;
        args[1] = mode;
        int i = 2;
        for (String author : authors) {
            scriptKeys[i + 1] = keys.unread(user, Long.parseLong(author));
            args[i] = author;
            i++;
        }
        return ReconcileScript.CHECK.call(redis, scriptKeys, args);
    }

    private static boolean isStale(List<Object> reply) {
        return !reply.isEmpty() && "stale".equals(reply.getFirst());
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
