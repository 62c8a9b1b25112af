package io.readmark.store.reconcile;

import io.readmark.store.RedisFixture;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadItem;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.infra.EmbeddedRedisCluster;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
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
import static io.readmark.store.reconcile.DriftKind.MISSING_COUNT;
import static io.readmark.store.reconcile.DriftKind.ORPHAN_SET;
import static io.readmark.store.reconcile.DriftKind.OVER_CAP;
import static io.readmark.store.reconcile.DriftKind.WRONG_COUNT;
import static io.readmark.store.reconcile.DriftKind.WRONG_MERGED;
import static io.readmark.store.reconcile.DriftKind.WRONG_SEEN;
import static io.readmark.store.reconcile.DriftKind.WRONG_TOTAL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Reconciler} on a real Redis: each kind of drift, written straight into Redis next to many users the real
 * scripts wrote, is reported for exactly the users that have it; repair makes every one of them clean without
 * touching an unread entry (over-cap sets aside); and a writer applying the real scripts meanwhile causes no false
 * drift, because each user is checked in one script.
 */
class ReconcileIT {

    private static final int CAP = 3;
    /** The writers' cap is larger, so the over-cap user can be built with the real scripts. */
    private static final UnreadLimits WRITER_LIMITS = new UnreadLimits(10, 50);
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
        scoped.sync().hset(scoped.keys().counts(1).replace("{u:1}", "{u:not-a-user}"), "7", "1");

        // When reconciling without repair
        Result result = reconcile(scoped, false);

        // Then exactly those users are reported, each with exactly its kind, and nothing was changed
        assertThat(result.byUser()).isEqualTo(planted.drift());
        ReconcileReport report = result.report();
        assertThat(report.usersDrifted()).isEqualTo(planted.drift().size());
        assertThat(report.usersByKind()).isEqualTo(Map.of(WRONG_COUNT, 1L, MISSING_COUNT, 1L, ORPHAN_SET, 1L,
                BAD_FIELD, 2L, WRONG_TOTAL, 1L, OVER_CAP, 1L, WRONG_MERGED, 4L, WRONG_SEEN, 1L));
        assertThat(report.usersScanned()).as("users with counts, plus the one with only a set")
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
        Map<Long, Map<Long, List<ScoredValue<String>>>> setsBefore = new HashMap<>();
        planted.drift().keySet().forEach(user -> setsBefore.put(user, unreadSets(scoped, user)));
        Map<String, String> cleanBefore = scoped.sync().hgetall(scoped.keys().counts(1));

        // When reconciling with repair
        Result repaired = reconcile(scoped, true);

        // Then every drifted user was repaired and found clean by the re-check
        assertThat(repaired.byUser()).isEqualTo(planted.drift());
        assertThat(repaired.report().usersRepaired()).isEqualTo(planted.drift().size());
        assertThat(repaired.report().clean()).isTrue();
        // ... the invariants hold, counts equal the sets, and no unread entry moved except the trimmed ones
        for (long user : planted.drift().keySet()) {
            scoped.assertInvariants(user, "user " + user + " after repair");
            if (user != OVER_CAP_USER) {
                assertThat(unreadSets(scoped, user)).as("unread of user %d", user).isEqualTo(setsBefore.get(user));
            }
        }
        assertThat(countsOf(scoped, WRONG_COUNT_USER)).isEqualTo(Map.of("7", "2", "total", "2"));
        assertThat(countsOf(scoped, ORPHAN_USER)).isEqualTo(Map.of("7", "2", "total", "2"));
        assertThat(countsOf(scoped, ZERO_FIELD_USER)).isEqualTo(Map.of("7", "1", "total", "1"));
        assertThat(countsOf(scoped, WRONG_SEEN_USER)).isEqualTo(Map.of("7", "1", "8", "1", "total", "2", "seen", "1"));
        // ... an over-cap set keeps its newest CAP entries and the floor keeps the trimmed ones from coming back
        assertThat(scoped.sync().zrange(scoped.keys().unread(OVER_CAP_USER, 7), 0, -1)).containsExactly("3", "4", "5");
        assertThat(scoped.sync().hget(scoped.keys().floors(OVER_CAP_USER), "7")).isEqualTo(Long.toString(T0 + 2));
        assertThat(countsOf(scoped, OVER_CAP_USER)).isEqualTo(Map.of("7", "3", "total", "3"));
        assertThat(scoped.sync().hgetall(scoped.keys().counts(1))).as("a clean user is left alone").isEqualTo(cleanBefore);
        // ... and the merged index is the union of the sets again (assertInvariants), the stray entries gone
        assertThat(scoped.sync().exists(scoped.keys().merged(MERGED_ONLY_USER))).isZero();
        assertThat(redis.merged(scoped.keys(), MERGED_STRAY_USER)).extracting(UnreadItem::authorId).containsOnly(7L);

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
    void shouldReportEveryUserOfAStoreWithoutMergedIndexesAndBuildThemOnRepair() {
        // Given users the scripts wrote before there was a merged index: the same keys, no index
        RedisFixture.Scoped scoped = redis.scoped("upgrade-" + UUID.randomUUID());
        writeCleanUsers(scoped, 200);
        connectionsScan(scoped.keys().mergedPattern(), key -> scoped.sync().del(key));
        long withUnread = usersWithUnread(scoped, 200);

        // When reconciling, then repairing
        Result found = reconcile(scoped, false);
        Result repaired = reconcile(scoped, true);

        // Then every user with unread lacks the index, and the repair built each one as the union of the sets
        assertThat(found.report().usersByKind()).isEqualTo(Map.of(WRONG_MERGED, withUnread));
        assertThat(found.report().examples().getFirst().describe()).matches(
                "user \\d+: wrong-merged, merged index holds 0 entries, the unread sets \\d+");
        assertThat(repaired.report().usersRepaired()).isEqualTo(withUnread);
        for (long user = 1; user <= 200; user++) scoped.assertInvariants(user, "user " + user + " after repair");
        assertThat(reconcile(scoped, false).byUser()).isEmpty();
    }

    @Test
    void shouldReportAKeyOfTheWrongTypeAndLeaveItToAnOperator() {
        // Given a user whose unread key of author 7 was overwritten with a string
        RedisFixture.Scoped scoped = redis.scoped("type-" + UUID.randomUUID());
        try (UnreadWriter writer = scoped.writer(WRITER_LIMITS)) {
            writer.deliver(1, 7, 1, T0 + 1);
            writer.awaitAcknowledged();
        }
        scoped.sync().set(scoped.keys().unread(1, 7), "oops");

        // When reconciling with repair
        Result result = reconcile(scoped, true);

        // Then it is reported, not repaired, and the key is left as it was
        assertThat(result.byUser()).isEqualTo(Map.of(1L, EnumSet.of(DriftKind.WRONG_TYPE)));
        assertThat(result.report().usersRepaired()).isZero();
        assertThat(result.report().clean()).isFalse();
        assertThat(result.report().examples().getFirst().describe())
                .isEqualTo("user 1: wrong-type, key unread:7 is a string, expected a zset");
        assertThat(scoped.sync().get(scoped.keys().unread(1, 7))).isEqualTo("oops");
    }

    @Test
    void shouldScanEveryMasterOfARedisCluster() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3);
             RedisConnections connections = RedisConnections.connect(cluster.url(), Duration.ofSeconds(5), false)) {
            // Given users spread over the slots of three masters, a few of them drifted
            UnreadKeys keys = new UnreadKeys("cluster");
            try (UnreadWriter writer = new UnreadWriter(connections.openBinary(), keys, WRITER_LIMITS, 1_000)) {
                for (long user = 1; user <= 300; user++) writer.deliver(user, 7, user, T0 + user);
                writer.awaitAcknowledged();
            }
            RedisClusterCommands<String, String> sync = connections.shared().sync();
            Set<Long> drifted = Set.of(5L, 77L, 150L, 299L);
            drifted.forEach(user -> sync.hset(keys.counts(user), "7", "9"));

            // When reconciling
            Map<Long, Set<DriftKind>> found = new TreeMap<>();
            ReconcileReport report = new Reconciler(connections, keys, CAP).run(false, collector(found));

            // Then all users were scanned and exactly the drifted ones found, on whichever master they live
            assertThat(report.usersScanned()).isEqualTo(300);
            assertThat(found.keySet()).isEqualTo(drifted);
            assertThat(found.values()).allMatch(kinds -> kinds.equals(EnumSet.of(WRONG_COUNT, WRONG_TOTAL)));
        }
    }

    // ---- scenarios --------------------------------------------------------------------------------------------

    private static final long WRONG_COUNT_USER = 1_000_001;
    private static final long MISSING_COUNT_USER = 1_000_002;
    private static final long ZERO_FIELD_USER = 1_000_003;
    private static final long NEGATIVE_FIELD_USER = 1_000_004;
    private static final long WRONG_TOTAL_USER = 1_000_005;
    private static final long ORPHAN_USER = 1_000_006;
    private static final long OVER_CAP_USER = 1_000_007;
    private static final long MERGED_MISSING_USER = 1_000_008;
    private static final long MERGED_STRAY_USER = 1_000_009;
    private static final long MERGED_SCORE_USER = 1_000_010;
    private static final long MERGED_ONLY_USER = 1_000_011;
    private static final long WRONG_SEEN_USER = 1_000_012;

    private static byte[] member(long authorId, long blogId) {
        return ByteBuffer.allocate(16).putLong(authorId).putLong(blogId).array();
    }

    /** One user per kind of drift; each built so that it shows that kind and no other. */
    private static Planted plantEveryKindOfDrift(RedisFixture.Scoped scoped) {
        UnreadKeys keys = scoped.keys();
        RedisClusterCommands<String, String> sync = scoped.sync();
        try (UnreadWriter writer = scoped.writer(WRITER_LIMITS)) {
            for (long user : List.of(WRONG_COUNT_USER, WRONG_TOTAL_USER, NEGATIVE_FIELD_USER, MERGED_MISSING_USER,
                    MERGED_STRAY_USER, MERGED_SCORE_USER)) {
                writer.deliver(user, 7, 1, T0 + 1);
                writer.deliver(user, 7, 2, T0 + 2);
            }
            writer.deliver(MISSING_COUNT_USER, 7, 1, T0 + 1);
            writer.deliver(MISSING_COUNT_USER, 8, 2, T0 + 2);
            writer.deliver(MISSING_COUNT_USER, 8, 3, T0 + 3);
            writer.deliver(ZERO_FIELD_USER, 7, 1, T0 + 1);
            for (long blog = 1; blog <= 5; blog++) writer.deliver(OVER_CAP_USER, 7, blog, T0 + blog);
            writer.deliver(WRONG_SEEN_USER, 7, 1, T0 + 1);
            writer.deliver(WRONG_SEEN_USER, 8, 2, T0 + 2);
            writer.inboxSeen(WRONG_SEEN_USER, T0 + 1);
            writer.awaitAcknowledged();
        }
        // seen 2 while one unread entry is at or before the watermark: unseen would read 0 instead of 1
        sync.hset(keys.counts(WRONG_SEEN_USER), "seen", "2");
        // counts[7] = 3 while the set holds 2 (and total follows the field, so only the count is wrong)
        sync.hset(keys.counts(WRONG_COUNT_USER), Map.of("7", "3", "total", "3"));
        // author 8's set has 2 entries but no field; total matches the fields that are there
        sync.hdel(keys.counts(MISSING_COUNT_USER), "8");
        sync.hset(keys.counts(MISSING_COUNT_USER), "total", "1");
        // a zero field of an author without entries
        sync.hset(keys.counts(ZERO_FIELD_USER), "9", "0");
        // a negative field, with total still the sum of the fields
        sync.hset(keys.counts(NEGATIVE_FIELD_USER), Map.of("9", "-1", "total", "1"));
        // total 5, fields sum to 2
        sync.hset(keys.counts(WRONG_TOTAL_USER), "total", "5");
        // unread entries of a user who has no counts at all (in the merged index too, so only the count is missing)
        sync.zadd(keys.unread(ORPHAN_USER, 7), T0 + 1, "1");
        sync.zadd(keys.unread(ORPHAN_USER, 7), T0 + 2, "2");
        var binary = redis.binary.sync();
        binary.zadd(keys.mergedBytes(ORPHAN_USER), T0 + 1, member(7, 1));
        binary.zadd(keys.mergedBytes(ORPHAN_USER), T0 + 2, member(7, 2));
        // no merged index, as in a deployment from before it
        sync.del(keys.merged(MERGED_MISSING_USER));
        // an entry of an author the user has no set of
        binary.zadd(keys.mergedBytes(MERGED_STRAY_USER), T0 + 3, member(8, 3));
        // an entry at another time than in its set
        binary.zadd(keys.mergedBytes(MERGED_SCORE_USER), T0 + 9, member(7, 2));
        // a merged index and nothing else
        binary.zadd(keys.mergedBytes(MERGED_ONLY_USER), T0 + 4, member(8, 4));
        // OVER_CAP_USER: 5 entries, consistent counts, above the reconciler's cap of 3
        return new Planted(Map.ofEntries(
                Map.entry(WRONG_COUNT_USER, EnumSet.of(WRONG_COUNT)),
                Map.entry(MISSING_COUNT_USER, EnumSet.of(MISSING_COUNT)),
                Map.entry(ZERO_FIELD_USER, EnumSet.of(BAD_FIELD)),
                Map.entry(NEGATIVE_FIELD_USER, EnumSet.of(BAD_FIELD)),
                Map.entry(WRONG_TOTAL_USER, EnumSet.of(WRONG_TOTAL)),
                Map.entry(ORPHAN_USER, EnumSet.of(ORPHAN_SET)),
                Map.entry(OVER_CAP_USER, EnumSet.of(OVER_CAP)),
                Map.entry(MERGED_MISSING_USER, EnumSet.of(WRONG_MERGED)),
                Map.entry(MERGED_STRAY_USER, EnumSet.of(WRONG_MERGED)),
                Map.entry(MERGED_SCORE_USER, EnumSet.of(WRONG_MERGED)),
                Map.entry(MERGED_ONLY_USER, EnumSet.of(WRONG_MERGED)),
                Map.entry(WRONG_SEEN_USER, EnumSet.of(WRONG_SEEN))));
    }

    /**
     * Users 1..n changed only by the scripts: deliveries from up to 4 authors (never above the reconciler's cap per
     * author), reads, read-alls, deletes, unfollows, all-reads and inbox views, so counts come and go the way they do
     * in production.
     */
    private static void writeCleanUsers(RedisFixture.Scoped scoped, int users) {
        Random random = new Random(users);
        try (UnreadWriter writer = scoped.writer(new UnreadLimits(CAP, 50))) {
            for (long user = 1; user <= users; user++) {
                for (int op = 0; op < 12; op++) applyRandomChange(writer, random, user, op);
            }
            writer.awaitAcknowledged();
        }
    }

    private static void applyRandomChange(UnreadWriter writer, Random random, long user, long blog) {
        long author = 1 + random.nextInt(4);
        int dice = random.nextInt(12);
        if (dice < 6) {
            writer.deliver(user, author, blog, T0 + blog);
        } else if (dice < 8) {
            writer.remove(user, author, random.nextInt((int) blog + 1), T0 + 100);
        } else if (dice < 9) {
            writer.readAll(user, author, T0 + random.nextInt((int) blog + 1));
        } else if (dice < 10) {
            writer.unfollow(user, author, T0 + blog);
        } else if (dice < 11) {
            writer.inboxSeen(user, T0 + random.nextInt((int) blog + 1));
        } else {
            writer.allRead(user, T0 + random.nextInt((int) blog + 1));
        }
    }

    /** Random real-script changes to users 1..n until stopped: authors of a user appear and vanish all the time. */
    private static void keepWriting(RedisFixture.Scoped scoped, int users, AtomicBoolean stop, AtomicLong applied) {
        Random random = new Random(42);
        long blog = 1_000;
        try (UnreadWriter writer = scoped.writer(new UnreadLimits(CAP, 50))) {
            while (!stop.get()) {
                for (int i = 0; i < 500; i++) applyRandomChange(writer, random, 1 + random.nextInt(users), blog++);
                writer.awaitAcknowledged();
                applied.addAndGet(500);
            }
        }
    }

    @Test
    void shouldReportAndRepairAWrongNoticesCountWithAndWithoutCounts() {
        // Given users whose notices the scripts wrote, one with counts.notices off by one, one whose counts hash (and
        // with it counts.notices) is gone while its inbox holds unread notices, and one with a notices field but no inbox
        RedisFixture.Scoped scoped = redis.scoped("reconcile-notices-" + UUID.randomUUID());
        NoticeKeys noticeKeys = new NoticeKeys(scoped.keys().prefix());
        try (UnreadWriter writer = scoped.writer(WRITER_LIMITS)) {
            for (long user = 1; user <= 4; user++) {
                writer.noticeSent(user, 500, T0);
                writer.noticeSent(user, 501, T0 + 1);
                writer.noticeRead(user, 500, T0 + 2);
                writer.deliver(user, 7, 1000 + user, T0);
            }
            writer.awaitAcknowledged();
        }
        scoped.sync().hset(scoped.keys().counts(2), "notices", "2");
        scoped.sync().del(scoped.keys().counts(3));
        scoped.sync().hset(scoped.keys().counts(5), "notices", "4");

        // When reconciling: reported; then with repair: a rerun is clean and counts.notices is what the inbox holds
        Map<Long, Set<DriftKind>> expected = new TreeMap<>(Map.of(2L, EnumSet.of(DriftKind.WRONG_NOTICES),
                3L, EnumSet.of(DriftKind.ORPHAN_SET, DriftKind.WRONG_NOTICES), 5L, EnumSet.of(DriftKind.WRONG_NOTICES)));
        assertThat(reconcile(scoped, false).byUser()).isEqualTo(expected);
        long versionBefore = Long.parseLong(scoped.sync().hget(scoped.keys().counts(2), "v"));
        // (user 3's repair of its orphan set also sets its notices right, before the pass over inboxes reaches it)
        assertThat(reconcile(scoped, true).byUser()).containsOnlyKeys(2L, 3L, 5L);
        assertThat(Long.parseLong(scoped.sync().hget(scoped.keys().counts(2), "v"))).as("a repaired count is a change seen")
                .isEqualTo(versionBefore + 1);
        assertThat(reconcile(scoped, false).byUser()).isEmpty();
        for (long user = 1; user <= 3; user++) {
            assertThat(scoped.sync().hget(scoped.keys().counts(user), "notices")).as("user " + user).isEqualTo("1");
        }
        assertThat(scoped.sync().hkeys(scoped.keys().counts(5))).as("only the state version").containsOnly("v");
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
        scoped.sync().hset(scoped.keys().counts(2), "notices", "3"); // both kinds at once
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
        ReconcileReport report = new Reconciler(redis.redis, scoped.keys(), CAP).run(repair, collector(byUser));
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

    private static void connectionsScan(String pattern, java.util.function.Consumer<String> each) {
        redis.redis.scan(pattern, 1_000, batch -> batch.forEach(each));
    }

    /** Of users 1..n, those with unread left (a counts hash): a user whose unread all went has no keys to scan. */
    private static long usersWithCounts(RedisFixture.Scoped scoped, int users) {
        long count = 0;
        for (long user = 1; user <= users; user++) count += scoped.sync().exists(scoped.keys().counts(user));
        return count;
    }

    /** The users with unread blogs: a counts hash may hold only the state version. */
    private static long usersWithUnread(RedisFixture.Scoped scoped, int users) {
        long count = 0;
        for (long user = 1; user <= users; user++) count += scoped.sync().hexists(scoped.keys().counts(user), "total") ? 1 : 0;
        return count;
    }

    /** The counts hash but its state version, which repairs bump and no invariant ties to the sets. */
    private static Map<String, String> countsOf(RedisFixture.Scoped scoped, long user) {
        Map<String, String> counts = new HashMap<>(scoped.sync().hgetall(scoped.keys().counts(user)));
        counts.remove("v");
        return counts;
    }

    /** Every unread set of the user (authors 1..9), with scores. */
    private static Map<Long, List<ScoredValue<String>>> unreadSets(RedisFixture.Scoped scoped, long user) {
        Map<Long, List<ScoredValue<String>>> sets = new TreeMap<>();
        for (long author = 1; author <= 9; author++) {
            List<ScoredValue<String>> entries = scoped.sync().zrangeWithScores(scoped.keys().unread(user, author), 0, -1);
            if (!entries.isEmpty()) sets.put(author, entries);
        }
        return sets;
    }
}
