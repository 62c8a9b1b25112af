package io.readmark.store.reconcile;

import io.readmark.store.RedisFixture;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadChanges;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;
import io.readmark.store.unread.WriteGuard;

import io.readmark.infra.EmbeddedRedis;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link LayoutUpgradeGuard} in front of a writer of this release: a user the previous release wrote (with its own
 * scripts, {@link PreviousLayoutWriter}) is converted before any write reaches it, and ends exactly as a user
 * converted by {@code readmark migrate} first and written afterwards; a user already converted costs no conversion.
 */
class LayoutUpgradeGuardIT {

    /** A whole second, as in {@link LayoutMigrationIT}. */
    private static final long T0 = 1_767_225_600_000L;
    private static final UnreadLimits LIMITS = UnreadLimits.DEFAULTS;
    private static final long[] AUTHORS = {7, 8, 9};

    @AutoClose
    private static final RedisFixture redis = new RedisFixture();

    /** One kind of change of this release, made to each of the users (in one call where the writer takes several). */
    private record Write(String name, BiConsumer<UnreadChanges, List<Long>> apply) {
    }

    private static final List<Write> WRITES = List.of(
            new Write("a delivery to two users in one call", (writer, users) -> writer.deliverToEach(users, 7, 6, T0 + 5_000)),
            new Write("a delivery of a blog read before the upgrade", (writer, users) -> writer.deliverToEach(users, 7, 1, T0)),
            new Write("a read", (writer, users) -> users.forEach(user -> writer.remove(user, 8, 3, T0 + 11_000))),
            new Write("a delete for two users in one call", (writer, users) -> writer.deleteForEach(users, 8, 4, T0 + 12_000)),
            new Write("a read-all of an author", (writer, users) -> users.forEach(user -> writer.readAll(user, 7, T0 + 2_000))),
            new Write("an all-read", (writer, users) -> users.forEach(user -> writer.allRead(user, T0 + 3_500))),
            new Write("the inbox seen", (writer, users) -> users.forEach(user -> writer.inboxSeen(user, T0 + 5_000))),
            new Write("an unfollow", (writer, users) -> users.forEach(user -> writer.unfollow(user, 9, T0 + 12_000))),
            new Write("a targeted notice", (writer, users) -> users.forEach(user -> writer.noticeSent(user, 60, T0 + 6_000))));

    @Test
    void shouldConvertEachUserBeforeTheFirstWriteSoItEndsAsIfMigratedFirst() {
        // Given, for each kind of write, two users of the previous layout and two twins with the same state, which
        // readmark migrate converts
        UnreadKeys keys = redis.scoped("guard-" + UUID.randomUUID()).keys();
        LayoutMigration migration = new LayoutMigration(redis.redis, keys, LIMITS.maxUnreadPerAuthor(), LIMITS.maxUnreadPerUser(),
                LIMITS.maxMarksPerUser());
        LayoutUpgradeGuard guard = new LayoutUpgradeGuard(redis.redis, keys, LIMITS);
        try (UnreadWriter guarded = writer(redis.redis, keys, guard);
             UnreadWriter plain = writer(redis.redis, keys, WriteGuard.NONE)) {
            for (int w = 0; w < WRITES.size(); w++) {
                Write write = WRITES.get(w);
                List<Long> users = List.of(w * 10L + 1, w * 10L + 2);
                List<Long> twins = List.of(w * 10L + 5, w * 10L + 6);
                for (long user : users) previousState(keys, user);
                for (long twin : twins) previousState(keys, twin);
                Map<Long, Long> versions = new TreeMap<>();
                for (long user : users) versions.put(user, previousVersion(keys, user));
                for (long twin : twins) versions.put(twin, previousVersion(keys, twin));
                for (long twin : twins) migration.migrate(twin, null);

                // When this release writes to both, the users through the guard
                write.apply().accept(plain, twins);
                write.apply().accept(guarded, users);
                plain.awaitAcknowledged();
                guarded.awaitAcknowledged();

                // Then each user has no old key left, and exactly its twin's state
                for (int i = 0; i < users.size(); i++) {
                    long user = users.get(i), twin = twins.get(i);
                    assertThat(oldKeys(keys, user)).as("old keys of user %d after %s", user, write.name()).isZero();
                    assertThat(state(keys, user, versions.get(user)))
                            .as("user %d after %s, against user %d migrated first", user, write.name(), twin)
                            .isEqualTo(state(keys, twin, versions.get(twin)));
                }
            }
            assertThat(guard.conversions()).as("users converted by the guard").isEqualTo(2L * WRITES.size());
        }
    }

    @Test
    void shouldLeaveTheOldKeysBesideTheNewOnesWithoutTheGuard() {
        // Given users of the previous layout
        UnreadKeys keys = redis.scoped("unguarded-" + UUID.randomUUID()).keys();
        try (UnreadWriter plain = writer(redis.redis, keys, WriteGuard.NONE)) {
            for (int w = 0; w < WRITES.size(); w++) {
                Write write = WRITES.get(w);
                List<Long> users = List.of(w * 10L + 1, w * 10L + 2);
                for (long user : users) previousState(keys, user);

                // When this release writes to them without the guard
                write.apply().accept(plain, users);
                plain.awaitAcknowledged();

                // Then the old keys are still there next to what the write made: what the guard is for
                for (long user : users) {
                    assertThat(oldKeys(keys, user)).as("old keys of user %d after %s", user, write.name()).isPositive();
                    assertThat(redis.sync.exists(keys.z(user), keys.h(user), keys.floors(user)))
                            .as("new keys of user %d after %s", user, write.name()).isPositive();
                }
            }
        }
    }

    @Test
    void shouldConvertNobodyAlreadyOnTheNewLayoutNorAnybodyTwice() {
        // Given a user migrated before, and one only this release ever wrote
        UnreadKeys keys = redis.scoped("converted-" + UUID.randomUUID()).keys();
        previousState(keys, 1);
        new LayoutMigration(redis.redis, keys, LIMITS.maxUnreadPerAuthor(), LIMITS.maxUnreadPerUser(), LIMITS.maxMarksPerUser())
                .migrate(1, null);
        LayoutUpgradeGuard guard = new LayoutUpgradeGuard(redis.redis, keys, LIMITS);
        try (UnreadWriter guarded = writer(redis.redis, keys, guard)) {
            guarded.deliver(2, 7, 1, T0);
            guarded.awaitAcknowledged();

            // When the guarded writer writes to them
            for (Write write : WRITES) write.apply().accept(guarded, List.of(1L, 2L));
            guarded.awaitAcknowledged();

            // Then it converted nobody
            assertThat(guard.conversions()).isZero();

            // ... and a user it converted, it converts once
            previousState(keys, 3);
            for (Write write : WRITES) write.apply().accept(guarded, List.of(3L));
            guarded.awaitAcknowledged();
            assertThat(guard.conversions()).isEqualTo(1);
            assertThat(oldKeys(keys, 3)).isZero();
        }
    }

    @Test
    void shouldWaitOutARedisOutageInsteadOfFailingTheWrite() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(server.url(), Duration.ofSeconds(1), false)) {
            UnreadKeys keys = new UnreadKeys("guard-outage");
            LayoutUpgradeGuard guard = new LayoutUpgradeGuard(connections, keys, LIMITS);
            try (UnreadWriter guarded = writer(connections, keys, guard)) {
                // Given Redis down when a write to a user the guard has not seen comes
                server.stop();
                CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                    guarded.deliver(1, 7, 1, T0);
                    guarded.awaitAcknowledged();
                });

                // Then the write waits, without failing, until Redis is back
                await("waiting while Redis is down").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                        .until(() -> !written.isDone());
                server.restart();
                written.get(10, TimeUnit.SECONDS);
                assertThat(connections.shared().sync().zscore(keys.z(1), "1")).isEqualTo(-(T0 / 1_000.0));
                assertThat(guard.conversions()).as("a restarted Redis without persistence has no old keys").isZero();
            }
        }
    }

    private static UnreadWriter writer(RedisConnections connections, UnreadKeys keys, WriteGuard guard) {
        return new UnreadWriter(connections.openBinary(), keys, LIMITS, 1_000, applied -> { }, retried -> { }, 0, guard);
    }

    /**
     * The same state for every user, as the previous release wrote it: unread blogs of three authors, a read mark, a
     * read-all floor, the seen watermark and a targeted notice.
     */
    private static void previousState(UnreadKeys keys, long user) {
        PreviousLayoutWriter previous = new PreviousLayoutWriter(redis.binary.sync(), keys);
        previous.deliver(user, 7, 1, T0, LIMITS.maxUnreadPerAuthor());
        previous.deliver(user, 7, 2, T0 + 2_000, LIMITS.maxUnreadPerAuthor());
        previous.deliver(user, 8, 3, T0 + 1_000, LIMITS.maxUnreadPerAuthor());
        previous.deliver(user, 8, 4, T0 + 4_000, LIMITS.maxUnreadPerAuthor());
        previous.deliver(user, 9, 5, T0 + 3_000, LIMITS.maxUnreadPerAuthor());
        previous.remove(user, 7, 1, T0 + 10_000, LIMITS.maxMarksPerUser());
        previous.readAll(user, 9, T0 + 500);
        previous.inboxSeen(user, T0 + 2_500);
        previous.noticeSent(user, 50, T0 + 4_500);
    }

    /** How many of the user's keys of the previous layout exist. */
    private static long oldKeys(UnreadKeys keys, long user) {
        long found = redis.sync.exists(keys.counts(user), keys.marks(user), keys.merged(user));
        for (long author : AUTHORS) found += redis.sync.exists(keys.unread(user, author));
        return found;
    }

    /**
     * The state version the previous release left: it started at the microsecond of the user's first change, so two
     * users given the same changes a moment apart differ by that moment, and only by how far past it they are alike.
     */
    private static long previousVersion(UnreadKeys keys, long user) {
        return Long.parseLong(redis.sync.hget(keys.counts(user), "v"));
    }

    /**
     * Everything of the user's that this release keeps, read without DUMP: h's records as hex, being binary, and its
     * version as how far it moved past {@code previousVersion}.
     */
    private static Map<String, Object> state(UnreadKeys keys, long user, long previousVersion) {
        NoticeKeys notices = new NoticeKeys(keys.prefix());
        Map<String, String> h = new TreeMap<>();
        redis.binary.sync().hgetall(keys.hBytes(user)).forEach((field, value) ->
                h.put(new String(field, StandardCharsets.US_ASCII), HexFormat.of().formatHex(value)));
        h.put("v", "+" + (Long.parseLong(redis.sync.hget(keys.h(user), "v")) - previousVersion));
        return new TreeMap<>(Map.of("z", scored(redis.sync.zrangeWithScores(keys.z(user), 0, -1)), "h", h,
                "floors", new TreeMap<>(redis.sync.hgetall(keys.floors(user))),
                "inbox", scored(redis.sync.zrangeWithScores(notices.inbox(user), 0, -1)),
                "notice reads", scored(redis.sync.zrangeWithScores(notices.noticeReads(user), 0, -1)),
                "audiences", new TreeMap<>(redis.sync.hgetall(notices.audiences(user)))));
    }

    private static List<String> scored(List<ScoredValue<String>> entries) {
        return entries.stream().map(entry -> entry.getValue() + "@" + entry.getScore()).toList();
    }
}
