package io.readmark.store.reconcile;

import io.readmark.store.RedisFixture;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.infra.EmbeddedRedisCluster;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.readmark.store.reconcile.DriftKind.BAD_FIELD;
import static io.readmark.store.reconcile.DriftKind.BAD_RECORDS;
import static io.readmark.store.reconcile.DriftKind.MISSING_ENTRY;
import static io.readmark.store.reconcile.DriftKind.OVER_CAP;
import static io.readmark.store.reconcile.DriftKind.STRAY_ENTRY;
import static io.readmark.store.reconcile.DriftKind.WRONG_SEEN;
import static io.readmark.store.reconcile.DriftKind.WRONG_TOTAL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Reconciler} on a real Redis: each kind of drift, written straight into Redis next to many users the real
 * scripts wrote, is reported for exactly the users that have it; repair makes every one of them clean, dropping only
 * what no record and z agree on (and what a cap trims); and a writer applying the real scripts meanwhile causes no
 * false drift, because each user is checked in one script.
 */
class ReconcileIT {

    private static final int CAP = 3;
    /** The writers' cap is larger, so the over-cap user can be built with the real scripts. */
    private static final int USER_CAP = 1_000;
    private static final UnreadLimits WRITER_LIMITS = new UnreadLimits(10, USER_CAP, 50);
    private static final long T0 = 1_767_225_600_000L;
    private static final int CLEAN_USERS = 400;

    @AutoClose
    private static final RedisFixture redis = new RedisFixture();

    /** The drifted users of one scenario and the kinds each must be reported with. */
    private record Planted(Map<Long, Set<DriftKind>> drift) {
    }

    /** Runs a reconcile and collects what it found, by user. */
    private record Result(ReconcileReport report, Map<Long, Set<DriftKind>> byUser) {
    }

    @Test
    void shouldReportExactlyTheDriftedUsersWithTheirKinds() {
        // Given many users the scripts wrote, and one user per kind of drift written straight into Redis
        RedisFixture.Scoped scoped = redis.scoped("reconcile-" + UUID.randomUUID());
        writeCleanUsers(scoped, CLEAN_USERS);
        Planted planted = plantEveryKindOfDrift(scoped);
        scoped.sync().hset(scoped.keys().h(1).replace("{u:1}", "{u:not-a-user}"), "total", "1");

        // When reconciling without repair
        Result result = reconcile(scoped, false);

        // Then exactly those users are reported, each with exactly its kind, and nothing was changed
        assertThat(result.byUser()).isEqualTo(planted.drift());
        ReconcileReport report = result.report();
        assertThat(report.usersDrifted()).isEqualTo(planted.drift().size());
        assertThat(report.usersByKind()).isEqualTo(Map.of(BAD_FIELD, 2L, BAD_RECORDS, 1L, MISSING_ENTRY, 1L,
                STRAY_ENTRY, 2L, WRONG_TOTAL, 1L, OVER_CAP, 1L, WRONG_SEEN, 1L));
        assertThat(report.usersScanned()).as("users with h, plus the one with only z")
                .isEqualTo(usersWithCounts(scoped, CLEAN_USERS) + planted.drift().size());
        assertThat(report.ignoredKeys()).as("the key whose user is no id").isEqualTo(1);
        assertThat(report.examples()).hasSize(Math.min(10, planted.drift().size()));
        assertThat(report.clean()).isFalse();
        assertThat(reconcile(scoped, false).byUser()).as("a check changes nothing").isEqualTo(planted.drift());
    }

    @Test
    void shouldRepairEveryDriftedUserSoThatARerunIsClean() {
        // Given drift of every kind next to clean users
        RedisFixture.Scoped scoped = redis.scoped("repair-" + UUID.randomUUID());
        writeCleanUsers(scoped, 50);
        Planted planted = plantEveryKindOfDrift(scoped);
        Map<Long, List<String>> zBefore = new HashMap<>();
        planted.drift().keySet().forEach(user -> zBefore.put(user, zOf(scoped, user)));
        Map<String, String> cleanBefore = countsOf(scoped, 1);

        // When reconciling with repair
        Result repaired = reconcile(scoped, true);

        // Then every drifted user was repaired and found clean by the re-check
        assertThat(repaired.byUser()).isEqualTo(planted.drift());
        assertThat(repaired.report().usersRepaired()).isEqualTo(planted.drift().size());
        assertThat(repaired.report().clean()).isTrue();
        // ... the invariants hold, and z lost only what no record named and what the cap trimmed
        for (long user : planted.drift().keySet()) {
            scoped.assertInvariants(user, "user " + user + " after repair");
            if (user != OVER_CAP_USER && user != STRAY_ENTRY_USER && user != Z_ONLY_USER) {
                assertThat(zOf(scoped, user)).as("z of user %d", user).isEqualTo(zBefore.get(user));
            }
        }
        assertThat(countsOf(scoped, WRONG_TOTAL_USER)).isEqualTo(Map.of("7", "2", "total", "2"));
        assertThat(countsOf(scoped, JUNK_FIELD_USER)).isEqualTo(Map.of("7", "1", "total", "1"));
        assertThat(countsOf(scoped, NO_NUMBER_USER)).isEqualTo(Map.of("7", "2", "total", "2"));
        assertThat(countsOf(scoped, BAD_RECORDS_USER)).isEqualTo(Map.of("7", "1", "total", "1"));
        assertThat(countsOf(scoped, MISSING_ENTRY_USER)).as("a record z does not hold goes").isEqualTo(Map.of("7", "1", "total", "1"));
        assertThat(countsOf(scoped, STRAY_ENTRY_USER)).isEqualTo(Map.of("7", "1", "total", "1"));
        assertThat(scoped.sync().zscore(scoped.keys().z(STRAY_ENTRY_USER), "99")).as("an entry no record names goes").isNull();
        assertThat(countsOf(scoped, WRONG_SEEN_USER)).isEqualTo(Map.of("7", "1", "8", "1", "total", "2", "seen", "1"));
        // ... the over-cap author keeps its newest CAP entries and the floor keeps the trimmed ones from coming back
        assertThat(redis.entries(scoped.keys(), OVER_CAP_USER)).extracting(item -> item.blogId()).containsExactly(5L, 4L, 3L);
        assertThat(scoped.sync().hget(scoped.keys().floors(OVER_CAP_USER), "7")).isEqualTo(Long.toString(T0 + 2_999));
        assertThat(countsOf(scoped, OVER_CAP_USER)).isEqualTo(Map.of("7", "3", "total", "3"));
        assertThat(scoped.sync().exists(scoped.keys().z(Z_ONLY_USER))).isZero();
        assertThat(countsOf(scoped, 1)).as("a clean user is left alone").isEqualTo(cleanBefore);

        // ... and a second run finds nothing
        Result rerun = reconcile(scoped, false);
        assertThat(rerun.byUser()).isEmpty();
        assertThat(rerun.report().clean()).isTrue();
    }

    @Test
    void shouldFindNoDriftInAStoreOnlyTheScriptsWrote() {
        // Given users the scripts wrote with every kind of change, trims included
        RedisFixture.Scoped scoped = redis.scoped("clean-" + UUID.randomUUID());
        writeCleanUsers(scoped, CLEAN_USERS);

        // When reconciling
        Result result = reconcile(scoped, false);

        // Then every user was scanned and none drifted
        assertThat(result.byUser()).isEmpty();
        assertThat(result.report().usersScanned()).isEqualTo(usersWithCounts(scoped, CLEAN_USERS)).isGreaterThan(CLEAN_USERS / 2);
        assertThat(result.report().keysScanned()).isGreaterThan(CLEAN_USERS);
        assertThat(result.report().clean()).isTrue();
    }

    @Test
    void shouldReportNoDriftWhileAWriterAppliesTheRealScripts() throws Exception {
        // Given a store the scripts keep changing, adding and dropping authors of users all the time
        RedisFixture.Scoped scoped = redis.scoped("live-" + UUID.randomUUID());
        writeCleanUsers(scoped, 1_000);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong applied = new AtomicLong();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> keepWriting(scoped, 1_000, stop, applied));
        try {
            // When reconciling several times while it writes
            List<Result> results = new ArrayList<>();
            for (int run = 0; run < 4; run++) {
                long before = applied.get();
                Result result = reconcile(scoped, false);
                results.add(result);
                assertThat(applied.get()).as("the writer wrote during run %d", run).isGreaterThan(before);
                // The writer's unfollows and all-reads drain users at its own pace: the scan covers those still there.
                assertThat(result.report().usersScanned()).as("users scanned in run %d", run)
                        .isGreaterThan(usersWithCounts(scoped, 1_000) / 2);
            }

            // Then none of the runs saw drift
            assertThat(results).allSatisfy(result -> assertThat(result.byUser()).isEmpty());
        } finally {
            stop.set(true);
            writer.get();
        }
    }

    @Test
    void shouldReportAKeyOfTheWrongTypeAndLeaveItToAnOperator() {
        // Given a user whose h was overwritten with a string
        RedisFixture.Scoped scoped = redis.scoped("type-" + UUID.randomUUID());
        try (UnreadWriter writer = scoped.writer(WRITER_LIMITS)) {
            writer.deliver(1, 7, 1, T0 + 1_000);
            writer.awaitAcknowledged();
        }
        scoped.sync().set(scoped.keys().h(1), "oops");

        // When reconciling with repair
        Result result = reconcile(scoped, true);

        // Then it is reported, not repaired, and the key is left as it was
        assertThat(result.byUser()).isEqualTo(Map.of(1L, EnumSet.of(DriftKind.WRONG_TYPE)));
        assertThat(result.report().usersRepaired()).isZero();
        assertThat(result.report().clean()).isFalse();
        assertThat(result.report().examples().getFirst().describe())
                .isEqualTo("user 1: wrong-type, key h is a string, expected a hash");
        assertThat(scoped.sync().get(scoped.keys().h(1))).isEqualTo("oops");
    }

    @Test
    void shouldScanEveryMasterOfARedisCluster() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3);
             RedisConnections connections = RedisConnections.connect(cluster.url(), Duration.ofSeconds(5), false)) {
            // Given users spread over the slots of three masters, a few of them drifted
            UnreadKeys keys = new UnreadKeys("cluster");
            try (UnreadWriter writer = new UnreadWriter(connections.openBinary(), keys, WRITER_LIMITS, 1_000)) {
                for (long user = 1; user <= 300; user++) writer.deliver(user, 7, user, T0 + user * 1_000);
                writer.awaitAcknowledged();
            }
            RedisClusterCommands<String, String> sync = connections.shared().sync();
            Set<Long> drifted = Set.of(5L, 77L, 150L, 299L);
            drifted.forEach(user -> sync.hset(keys.h(user), "total", "9"));

            // When reconciling
            Map<Long, Set<DriftKind>> found = new TreeMap<>();
            ReconcileReport report = new Reconciler(connections, keys, CAP, USER_CAP).run(false, collector(found));

            // Then all users were scanned and exactly the drifted ones found, on whichever master they live
            assertThat(report.usersScanned()).isEqualTo(300);
            assertThat(found.keySet()).isEqualTo(drifted);
            assertThat(found.values()).allMatch(kinds -> kinds.equals(EnumSet.of(WRONG_TOTAL)));
        }
    }

    // ---- scenarios --------------------------------------------------------------------------------------------

    private static final long WRONG_TOTAL_USER = 1_000_001;
    private static final long JUNK_FIELD_USER = 1_000_002;
    private static final long NO_NUMBER_USER = 1_000_003;
    private static final long BAD_RECORDS_USER = 1_000_004;
    private static final long MISSING_ENTRY_USER = 1_000_005;
    private static final long STRAY_ENTRY_USER = 1_000_006;
    private static final long OVER_CAP_USER = 1_000_007;
    private static final long WRONG_SEEN_USER = 1_000_008;
    private static final long Z_ONLY_USER = 1_000_009;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** One user per kind of drift; each built so that it shows that kind and no other. */
    private static Planted plantEveryKindOfDrift(RedisFixture.Scoped scoped) {
        UnreadKeys keys = scoped.keys();
        RedisClusterCommands<String, String> sync = scoped.sync();
        try (UnreadWriter writer = scoped.writer(WRITER_LIMITS)) {
            for (long user : List.of(WRONG_TOTAL_USER, NO_NUMBER_USER, MISSING_ENTRY_USER)) {
                writer.deliver(user, 7, 1, T0 + 1_000);
                writer.deliver(user, 7, 2, T0 + 2_000);
            }
            for (long user : List.of(JUNK_FIELD_USER, BAD_RECORDS_USER, STRAY_ENTRY_USER)) writer.deliver(user, 7, 1, T0 + 1_000);
            for (long blog = 1; blog <= 5; blog++) writer.deliver(OVER_CAP_USER, 7, blog, T0 + blog * 1_000);
            writer.deliver(WRONG_SEEN_USER, 7, 1, T0 + 1_000);
            writer.deliver(WRONG_SEEN_USER, 8, 2, T0 + 2_000);
            writer.inboxSeen(WRONG_SEEN_USER, T0 + 1_000);
            writer.awaitAcknowledged();
        }
        // total 5, the records number 2
        sync.hset(keys.h(WRONG_TOTAL_USER), "total", "5");
        // a field that is no author and no count
        sync.hset(keys.h(JUNK_FIELD_USER), "junk", "1");
        // a total that is no number
        sync.hset(keys.h(NO_NUMBER_USER), "total", "two");
        // an author whose value is no whole records (and names nothing z holds, so total still matches)
        redis.binary.sync().hset(keys.hBytes(BAD_RECORDS_USER), bytes("8"), new byte[13]);
        // a record whose blog z does not hold: total still says 2
        sync.zrem(keys.z(MISSING_ENTRY_USER), "2");
        // an unread entry no record names
        sync.zadd(keys.z(STRAY_ENTRY_USER), -(T0 / 1_000 + 3), "99");
        // seen 2 while one unread entry is at or before the watermark: unseen would read 0 instead of 1
        sync.hset(keys.h(WRONG_SEEN_USER), "seen", "2");
        // an unread entry of a user without h
        sync.zadd(keys.z(Z_ONLY_USER), -(T0 / 1_000 + 4), "4");
        // OVER_CAP_USER: 5 entries, consistent counts, above the reconciler's cap of 3
        return new Planted(Map.ofEntries(
                Map.entry(WRONG_TOTAL_USER, EnumSet.of(WRONG_TOTAL)),
                Map.entry(JUNK_FIELD_USER, EnumSet.of(BAD_FIELD)),
                Map.entry(NO_NUMBER_USER, EnumSet.of(BAD_FIELD)),
                Map.entry(BAD_RECORDS_USER, EnumSet.of(BAD_RECORDS)),
                Map.entry(MISSING_ENTRY_USER, EnumSet.of(MISSING_ENTRY)),
                Map.entry(STRAY_ENTRY_USER, EnumSet.of(STRAY_ENTRY)),
                Map.entry(OVER_CAP_USER, EnumSet.of(OVER_CAP)),
                Map.entry(WRONG_SEEN_USER, EnumSet.of(WRONG_SEEN)),
                Map.entry(Z_ONLY_USER, EnumSet.of(STRAY_ENTRY))));
    }

    /**
     * Users 1..n changed only by the scripts: deliveries from up to 4 authors (never above the reconciler's cap per
     * author), reads, read-alls, deletes, unfollows, all-reads and inbox views, so counts come and go the way they do
     * in production.
     */
    private static void writeCleanUsers(RedisFixture.Scoped scoped, int users) {
        Random random = new Random(users);
        try (UnreadWriter writer = scoped.writer(new UnreadLimits(CAP, USER_CAP, 50))) {
            for (long user = 1; user <= users; user++) {
                for (int op = 0; op < 12; op++) applyRandomChange(writer, random, user, op);
            }
            writer.awaitAcknowledged();
        }
    }

    private static void applyRandomChange(UnreadWriter writer, Random random, long user, long blog) {
        long author = 1 + random.nextInt(4);
        int dice = random.nextInt(12);
        // Blog ids are unique across users' authors: each (user, op) names its own blog.
        long id = user * 1_000_000 + blog;
        if (dice < 6) {
            writer.deliver(user, author, id, T0 + blog * 1_000);
        } else if (dice < 8) {
            writer.remove(user, author, user * 1_000_000 + random.nextInt((int) blog + 1), T0 + 100_000);
        } else if (dice < 9) {
            writer.readAll(user, author, T0 + random.nextInt((int) blog * 1_000 + 1));
        } else if (dice < 10) {
            writer.unfollow(user, author, T0 + blog * 1_000);
        } else if (dice < 11) {
            writer.inboxSeen(user, T0 + random.nextInt((int) blog * 1_000 + 1));
        } else {
            writer.allRead(user, T0 + random.nextInt((int) blog * 1_000 + 1));
        }
    }

    /** Random real-script changes to users 1..n until stopped: authors of a user appear and vanish all the time. */
    private static void keepWriting(RedisFixture.Scoped scoped, int users, AtomicBoolean stop, AtomicLong applied) {
        Random random = new Random(42);
        long blog = 1_000;
        try (UnreadWriter writer = scoped.writer(new UnreadLimits(CAP, USER_CAP, 50))) {
            while (!stop.get()) {
                for (int i = 0; i < 500; i++) applyRandomChange(writer, random, 1 + random.nextInt(users), blog++);
                writer.awaitAcknowledged();
                applied.addAndGet(500);
            }
        }
    }

    @Test
    void shouldReportAndRepairAWrongNoticesCountWithAndWithoutCounts() {
        // Given users whose notices the scripts wrote, one with the notices count off by one, one whose h (and with it
        // the count) is gone while its inbox holds unread notices, and one with a notices field but no inbox
        RedisFixture.Scoped scoped = redis.scoped("reconcile-notices-" + UUID.randomUUID());
        NoticeKeys noticeKeys = new NoticeKeys(scoped.keys().prefix());
        try (UnreadWriter writer = scoped.writer(WRITER_LIMITS)) {
            for (long user = 1; user <= 4; user++) {
                writer.noticeSent(user, 500, T0);
                writer.noticeSent(user, 501, T0 + 1_000);
                writer.noticeRead(user, 500, T0 + 2_000);
                writer.deliver(user, 7, 1000 + user, T0);
            }
            writer.awaitAcknowledged();
        }
        scoped.sync().hset(scoped.keys().h(2), "notices", "2");
        scoped.sync().del(scoped.keys().h(3));
        scoped.sync().hset(scoped.keys().h(5), "notices", "4");

        // When reconciling: reported; then with repair: a rerun is clean and counts.notices is what the inbox holds
        Map<Long, Set<DriftKind>> expected = new TreeMap<>(Map.of(2L, EnumSet.of(DriftKind.WRONG_NOTICES),
                3L, EnumSet.of(DriftKind.STRAY_ENTRY, DriftKind.WRONG_NOTICES), 5L, EnumSet.of(DriftKind.WRONG_NOTICES)));
        assertThat(reconcile(scoped, false).byUser()).isEqualTo(expected);
        long versionBefore = Long.parseLong(scoped.sync().hget(scoped.keys().h(2), "v"));
        // (user 3's repair of its stray entry also sets its notices right)
        assertThat(reconcile(scoped, true).byUser()).containsOnlyKeys(2L, 3L, 5L);
        assertThat(Long.parseLong(scoped.sync().hget(scoped.keys().h(2), "v"))).as("a repaired count is a change seen")
                .isEqualTo(versionBefore + 1);
        assertThat(reconcile(scoped, false).byUser()).isEmpty();
        for (long user = 1; user <= 3; user++) {
            assertThat(scoped.sync().hget(scoped.keys().h(user), "notices")).as("user " + user).isEqualTo("1");
        }
        assertThat(scoped.sync().hkeys(scoped.keys().h(5))).as("only the state version").containsOnly("v");
        assertThat(scoped.sync().zcard(noticeKeys.inbox(1))).isEqualTo(2);
    }

    @Test
    void shouldReportAndRepairTheNoticeFloorCopiedToTheAudiencesHash() {
        // Given users whose floors the scripts wrote: one whose copy is off, one whose copy is gone, one with a copy
        // but no floor, and one whose copy is gone with neither counts nor an inbox (a deployment from before the copy)
        RedisFixture.Scoped scoped = redis.scoped("reconcile-notice-floor-" + UUID.randomUUID());
        NoticeKeys noticeKeys = new NoticeKeys(scoped.keys().prefix());
        try (UnreadWriter writer = scoped.writer(WRITER_LIMITS)) {
            for (long user = 1; user <= 4; user++) {
                writer.deliver(user, 7, 1000 + user, T0);
                writer.noticeSent(user, 500, T0 + 5);
                if (user <= 3) writer.noticesAllRead(user, T0 + 10);
            }
            writer.allRead(5, T0 + 10);
            writer.awaitAcknowledged();
        }
        scoped.sync().hset(noticeKeys.audiences(2), NoticeKeys.NOTICE_FLOOR, Long.toString(T0 + 9));
        scoped.sync().hset(scoped.keys().h(2), "notices", "3"); // both kinds at once
        scoped.sync().hdel(noticeKeys.audiences(3), NoticeKeys.NOTICE_FLOOR);
        scoped.sync().hset(noticeKeys.audiences(4), NoticeKeys.NOTICE_FLOOR, Long.toString(T0));
        scoped.sync().hdel(noticeKeys.audiences(5), NoticeKeys.NOTICE_FLOOR);

        // When reconciling: reported; then with repair: a rerun is clean and every copy is the floor
        Map<Long, Set<DriftKind>> expected = new TreeMap<>();
        for (long user = 2; user <= 5; user++) expected.put(user, EnumSet.of(DriftKind.WRONG_NOTICE_FLOOR));
        expected.get(2L).add(DriftKind.WRONG_NOTICES);
        assertThat(reconcile(scoped, false).byUser()).isEqualTo(expected);
        assertThat(reconcile(scoped, true).byUser()).isEqualTo(expected);
        assertThat(reconcile(scoped, false).byUser()).isEmpty();
        assertThat(scoped.sync().hget(noticeKeys.audiences(5), NoticeKeys.NOTICE_FLOOR)).isEqualTo(Long.toString(T0 + 10));
        for (long user = 1; user <= 3; user++) {
            assertThat(scoped.sync().hget(noticeKeys.audiences(user), NoticeKeys.NOTICE_FLOOR)).as("user " + user)
                    .isEqualTo(Long.toString(T0 + 10));
        }
        assertThat(scoped.sync().hexists(noticeKeys.audiences(4), NoticeKeys.NOTICE_FLOOR)).isFalse();
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private static Result reconcile(RedisFixture.Scoped scoped, boolean repair) {
        Map<Long, Set<DriftKind>> byUser = new TreeMap<>();
        ReconcileReport report = new Reconciler(redis.redis, scoped.keys(), CAP, USER_CAP).run(repair, collector(byUser));
        return new Result(report, byUser);
    }

    private static Reconciler.Listener collector(Map<Long, Set<DriftKind>> byUser) {
        return new Reconciler.Listener() {
            @Override
            public void progress(long keysScanned, long usersScanned, long usersDrifted, String pass) {
            }

            @Override
            public void found(Drift drift) {
                byUser.computeIfAbsent(drift.userId(), user -> EnumSet.noneOf(DriftKind.class)).add(drift.kind());
            }
        };
    }

    /** Of users 1..n, those with h: a user whose unread all went and who never had a version has no keys to scan. */
    private static long usersWithCounts(RedisFixture.Scoped scoped, int users) {
        long count = 0;
        for (long user = 1; user <= users; user++) count += scoped.sync().exists(scoped.keys().h(user));
        return count;
    }

    /** h with each author's records counted, without the state version, which repairs bump. */
    private static Map<String, String> countsOf(RedisFixture.Scoped scoped, long user) {
        Map<String, String> counts = scoped.countsFields(user);
        counts.remove("v");
        return counts;
    }

    /** z as Redis orders it: members with their scores. */
    private static List<String> zOf(RedisFixture.Scoped scoped, long user) {
        return scoped.sync().zrangeWithScores(scoped.keys().z(user), 0, -1).stream().map(entry -> entry.getValue() + "@" + entry.getScore()).toList();
    }
}
