package io.readmark.store.reconcile;

import io.readmark.store.RedisFixture;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadItem;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadPage;
import io.readmark.store.unread.UnreadReader;
import io.readmark.store.unread.UnreadWriter;

import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LayoutMigration} from a Redis written by the release before z and h, with that release's own scripts
 * ({@link PreviousLayoutWriter}): afterwards every user's counts, unseen count, notices and pages are what they were,
 * the old keys are gone, read blogs stay read, and running it again changes nothing.
 */
class LayoutMigrationIT {

    /** A whole second: the previous release kept milliseconds, so posts on whole seconds order alike in both. */
    private static final long T0 = 1_767_225_600_000L;
    private static final int USERS = 60;
    private static final int AUTHORS = 5;

    /** The previous release's merged order: newest millisecond first, then authorId, then blogId, descending. */
    private static final Comparator<UnreadItem> PREVIOUS_MERGED_ORDER = Comparator.comparing(UnreadItem::publishedAt)
            .thenComparingLong(UnreadItem::authorId).thenComparingLong(UnreadItem::blogId).reversed();
    /** The previous release's order of one author: newest millisecond first, then blogId as text, descending. */
    private static final Comparator<UnreadItem> PREVIOUS_AUTHOR_ORDER = Comparator.comparing(UnreadItem::publishedAt)
            .thenComparing(item -> Long.toString(item.blogId())).reversed();

    @AutoClose
    private static final RedisFixture redis = new RedisFixture();

    /** What a user had before the conversion, read from the previous layout's keys. */
    private record Before(Map<Long, Long> byAuthor, long total, long unseen, long notices, long version, List<UnreadItem> entries) {
    }

    @Test
    void shouldConvertEveryUserSoThatCountsAndPagesAreWhatTheyWere() {
        // Given users written by the previous release: deliveries, reads, read-alls, inbox views, targeted notices
        RedisFixture.Scoped scoped = redis.scoped("migrate-" + UUID.randomUUID());
        UnreadKeys keys = scoped.keys();
        Map<Long, List<long[]>> delivered = writePrevious(keys, new Random(41));
        Map<Long, Before> before = new TreeMap<>();
        for (long user = 1; user <= USERS; user++) before.put(user, before(scoped, user));

        // When migrating, twice
        LayoutMigration migration = new LayoutMigration(redis.redis, keys, 1_000, 1_000, 1_000);
        LayoutMigration.Report report = migration.run((scanned, users, pass) -> { });
        LayoutMigration.Report again = migration.run((scanned, users, pass) -> { });

        // Then every user reads as before, on the new keys only, and the second run found nobody left
        assertThat(report.usersMigrated()).isEqualTo(USERS);
        assertThat(again.usersMigrated()).isZero();
        UnreadReader reader = new UnreadReader(redis.redis.shared(), keys);
        for (long user = 1; user <= USERS; user++) {
            Before was = before.get(user);
            UnreadCounts counts = reader.counts(user);
            assertThat(counts.byAuthor()).as("user %d by author", user).isEqualTo(was.byAuthor());
            assertThat(counts.total()).as("user %d total", user).isEqualTo(was.total());
            assertThat(counts.unseen()).as("user %d unseen", user).isEqualTo(was.unseen());
            assertThat(counts.targetedNotices()).as("user %d notices", user).isEqualTo(was.notices());
            assertThat(counts.version()).as("user %d version moved past the old one", user).isGreaterThan(was.version());
            assertThat(RedisFixture.mergedList(reader, user, 7)).as("user %d merged list", user).isEqualTo(was.entries());
            for (long author = 1; author <= AUTHORS; author++) {
                long of = author;
                assertThat(RedisFixture.authorList(reader, user, author, 3)).as("user %d author %d", user, author)
                        .isEqualTo(was.entries().stream().filter(item -> item.authorId() == of)
                                .sorted(java.util.Comparator.comparing(UnreadItem::publishedAt).reversed()
                                        .thenComparingLong(UnreadItem::blogId)).toList());
                assertThat(scoped.sync().exists(keys.unread(user, author))).isZero();
            }
            assertThat(scoped.sync().exists(keys.counts(user), keys.marks(user), keys.merged(user))).as("old keys of user %d", user).isZero();
            scoped.assertInvariants(user, "user " + user + " after the migration");
        }

        // ... and a blog read before the upgrade stays read when its delivery comes again
        try (UnreadWriter writer = scoped.writer(UnreadLimits.DEFAULTS)) {
            for (long user = 1; user <= USERS; user++) {
                for (long[] blog : delivered.get(user)) writer.deliver(user, blog[1], blog[0], T0 + 1_000);
            }
            writer.awaitAcknowledged();
        }
        for (long user = 1; user <= USERS; user++) {
            assertThat(reader.counts(user).total()).as("user %d after replays", user).isEqualTo(before.get(user).total());
        }
    }

    @Test
    void shouldKeepWhatTheNewScriptsWroteBeforeTheUserWasConverted() {
        // Given a user of the previous layout whom the new release's processor already delivered to
        RedisFixture.Scoped scoped = redis.scoped("migrate-merge-" + UUID.randomUUID());
        UnreadKeys keys = scoped.keys();
        new PreviousLayoutWriter(redis.binary.sync(), keys).deliver(1, 7, 1, T0, 1_000);
        try (UnreadWriter writer = scoped.writer(UnreadLimits.DEFAULTS)) {
            writer.deliver(1, 7, 2, T0 + 1_000);
            writer.deliver(1, 8, 3, T0 + 2_000);
            writer.awaitAcknowledged();
        }

        // When migrating
        new LayoutMigration(redis.redis, keys, 1_000, 1_000, 1_000).run((scanned, users, pass) -> { });

        // Then both layouts' entries are there
        UnreadReader reader = new UnreadReader(redis.redis.shared(), keys);
        assertThat(reader.counts(1).byAuthor()).isEqualTo(Map.of(7L, 2L, 8L, 1L));
        assertThat(RedisFixture.mergedList(reader, 1, 10)).extracting(UnreadItem::blogId).containsExactly(3L, 2L, 1L);
        scoped.assertInvariants(1, "the merged user");
    }

    @Test
    void shouldKeepOutWhatAFloorRaisedSinceTheUpgradeCovers() {
        // Given a user of the previous layout with posts of four authors...
        RedisFixture.Scoped scoped = redis.scoped("migrate-floors-" + UUID.randomUUID());
        UnreadKeys keys = scoped.keys();
        PreviousLayoutWriter previous = new PreviousLayoutWriter(redis.binary.sync(), keys);
        previous.deliver(1, 7, 1, T0, 1_000);
        previous.deliver(1, 7, 2, T0 + 2_000, 1_000);
        previous.deliver(1, 8, 3, T0, 1_000);
        previous.deliver(1, 9, 4, T0 + 1_000, 1_000);
        previous.deliver(1, 10, 5, T0 + 3_000, 1_000);
        // ... whom the new release's processor read-all'd one author, unfollowed another and all-read'd up to a moment
        try (UnreadWriter writer = scoped.writer(UnreadLimits.DEFAULTS)) {
            writer.readAll(1, 7, T0 + 1_000);
            writer.unfollow(1, 8, T0 + 5_000);
            writer.allRead(1, T0 + 1_500);
            writer.awaitAcknowledged();
        }

        // ... and whose old mark of blog 6 a replay of its delivery by the new release did not see
        previous.deliver(1, 11, 6, T0, 1_000);
        previous.remove(1, 11, 6, T0 + 4_000, 1_000);
        try (UnreadWriter writer = scoped.writer(UnreadLimits.DEFAULTS)) {
            writer.deliver(1, 11, 6, T0);
            writer.awaitAcknowledged();
        }

        // When migrating
        new LayoutMigration(redis.redis, keys, 1_000, 1_000, 1_000).run((scanned, users, pass) -> { });

        // Then the read stays read, and only what no floor covers is unread: blog 2 (after the read-all) and blog 5 (after the all-read)
        UnreadReader reader = new UnreadReader(redis.redis.shared(), keys);
        assertThat(reader.counts(1).byAuthor()).isEqualTo(Map.of(7L, 1L, 10L, 1L));
        assertThat(RedisFixture.mergedList(reader, 1, 10)).extracting(UnreadItem::blogId).containsExactly(5L, 2L);
        scoped.assertInvariants(1, "the migrated user");
    }

    @Test
    void shouldAnswerUsersNotConvertedYetFromTheirOldKeysDuringTheUpgrade() {
        // Given users written by the previous release, not converted yet
        RedisFixture.Scoped scoped = redis.scoped("migrate-reads-" + UUID.randomUUID());
        UnreadKeys keys = scoped.keys();
        Map<Long, List<long[]>> delivered = writePrevious(keys, new Random(46));
        Map<Long, Before> before = new TreeMap<>();
        for (long user = 1; user <= USERS; user++) before.put(user, before(scoped, user));
        UnreadReader upgrading = new UnreadReader(redis.redis.shared(), keys, true);
        UnreadReader plain = new UnreadReader(redis.redis.shared(), keys);

        // When reading them during the upgrade, then Then they read as the previous release answered them
        for (long user = 1; user <= USERS; user++) {
            Before was = before.get(user);
            UnreadCounts counts = upgrading.counts(user);
            assertThat(counts.byAuthor()).as("user %d by author", user).isEqualTo(was.byAuthor());
            assertThat(counts.total()).as("user %d total", user).isEqualTo(was.total());
            assertThat(counts.unseen()).as("user %d unseen", user).isEqualTo(was.unseen());
            assertThat(counts.targetedNotices()).as("user %d notices", user).isEqualTo(was.notices());
            assertThat(counts.version()).as("user %d version", user).isEqualTo(was.version());
            assertThat(upgrading.countsAsync(user).toCompletableFuture().join()).as("user %d async", user).isEqualTo(counts);
            assertThat(RedisFixture.mergedList(upgrading, user, 7)).as("user %d merged list", user)
                    .isEqualTo(was.entries().stream().sorted(PREVIOUS_MERGED_ORDER).toList());
            for (long author = 1; author <= AUTHORS; author++) {
                long of = author;
                assertThat(RedisFixture.authorList(upgrading, user, author, 3)).as("user %d author %d", user, author)
                        .isEqualTo(was.entries().stream().filter(item -> item.authorId() == of).sorted(PREVIOUS_AUTHOR_ORDER).toList());
            }
            for (long[] blog : delivered.get(user)) {
                boolean unread = was.entries().stream().anyMatch(item -> item.blogId() == blog[0]);
                assertThat(upgrading.isUnread(user, blog[1], blog[0])).as("user %d blog %d", user, blog[0]).isEqualTo(unread);
            }
            // ... which the new keys alone do not hold
            if (was.total() > 0) assertThat(plain.counts(user).total()).as("user %d on z and h alone", user).isZero();
        }

        // ... and once converted, from z and h, as a reader outside the upgrade reads them
        new LayoutMigration(redis.redis, keys, 1_000, 1_000, 1_000).run((scanned, users, pass) -> { });
        for (long user = 1; user <= USERS; user++) {
            assertThat(upgrading.counts(user)).as("user %d converted", user).isEqualTo(plain.counts(user));
            assertThat(RedisFixture.mergedList(upgrading, user, 7)).isEqualTo(RedisFixture.mergedList(plain, user, 7));
        }
    }

    @Test
    void shouldContinueAPageBegunBeforeTheUserWasConvertedWithoutSkippingAnEntry() {
        // Given a user of the previous layout with five posts of two authors, each in a second of its own, and a user
        // with four posts in one second, which that layout ordered by millisecond
        RedisFixture.Scoped scoped = redis.scoped("migrate-cursor-" + UUID.randomUUID());
        UnreadKeys keys = scoped.keys();
        PreviousLayoutWriter previous = new PreviousLayoutWriter(redis.binary.sync(), keys);
        for (long blog = 1; blog <= 5; blog++) previous.deliver(1, 7 + blog % 2, blog, T0 + blog * 1_000, 1_000);
        previous.deliver(2, 7, 9, T0 + 900, 1_000);
        previous.deliver(2, 7, 3, T0 + 500, 1_000);
        previous.deliver(2, 7, 5, T0 + 100, 1_000);
        previous.deliver(2, 8, 4, T0 + 700, 1_000);
        UnreadReader upgrading = new UnreadReader(redis.redis.shared(), keys, true);
        UnreadPage merged = upgrading.mergedPage(1, 2, null);
        UnreadPage byAuthor = upgrading.page(1, 8, 1, null);
        UnreadPage sameSecond = upgrading.mergedPage(2, 2, null);
        UnreadPage sameSecondByAuthor = upgrading.page(2, 7, 2, null);

        // When the users are converted before the next pages are asked for
        new LayoutMigration(redis.redis, keys, 1_000, 1_000, 1_000).run((scanned, users, pass) -> { });

        // Then they continue where the first ones ended, without a gap or a repeat across seconds...
        assertThat(blogIds(merged, cursor -> upgrading.mergedPage(1, 2, cursor))).containsExactly(5L, 4L, 3L, 2L, 1L);
        assertThat(blogIds(byAuthor, cursor -> upgrading.page(1, 8, 1, cursor))).containsExactly(5L, 3L, 1L);
        // ... and from the start of the cursor's second within one, so an entry may come again but none is missed
        assertThat(blogIds(sameSecond, cursor -> upgrading.mergedPage(2, 2, cursor))).startsWith(9L, 4L).containsOnly(9L, 4L, 3L, 5L)
                .contains(3L, 5L);
        assertThat(blogIds(sameSecondByAuthor, cursor -> upgrading.page(2, 7, 2, cursor))).startsWith(9L, 3L).contains(5L);
    }

    /** The blogs of a first page and of every page after it. */
    private static List<Long> blogIds(UnreadPage first, java.util.function.Function<String, UnreadPage> next) {
        List<Long> blogs = new ArrayList<>(first.items().stream().map(UnreadItem::blogId).toList());
        for (String cursor = first.nextCursor(); cursor != null; ) {
            UnreadPage page = next.apply(cursor);
            page.items().forEach(item -> blogs.add(item.blogId()));
            cursor = page.nextCursor();
        }
        return blogs;
    }

    /** Deliveries, reads, read-alls, inbox views and targeted notices by the previous release; returns {blog, author} delivered per user. */
    private static Map<Long, List<long[]>> writePrevious(UnreadKeys keys, Random random) {
        PreviousLayoutWriter previous = new PreviousLayoutWriter(redis.binary.sync(), keys);
        Map<Long, List<long[]>> delivered = new HashMap<>();
        for (long user = 1; user <= USERS; user++) {
            for (int op = 0; op < 40; op++) {
                long author = 1 + random.nextInt(AUTHORS);
                int dice = random.nextInt(12);
                List<long[]> mine = delivered.computeIfAbsent(user, u -> new ArrayList<>());
                if (dice < 6) {
                    long blog = user * 10_000 + op;
                    previous.deliver(user, author, blog, T0 + random.nextInt(200) * 1_000L, 1_000);
                    mine.add(new long[]{blog, author});
                } else if (dice < 8 && !mine.isEmpty()) {
                    long[] read = mine.get(random.nextInt(mine.size()));
                    previous.remove(user, read[1], read[0], T0 + 300_000 + random.nextInt(1_000), 1_000);
                } else if (dice < 9) {
                    previous.readAll(user, author, T0 + random.nextInt(200_000));
                } else if (dice < 10) {
                    previous.inboxSeen(user, T0 + random.nextInt(200_000));
                } else {
                    previous.noticeSent(user, 500 + op, T0 + random.nextInt(200_000));
                }
            }
        }
        return delivered;
    }

    private static Before before(RedisFixture.Scoped scoped, long user) {
        UnreadKeys keys = scoped.keys();
        Map<String, String> counts = scoped.sync().hgetall(keys.counts(user));
        Map<Long, Long> byAuthor = new TreeMap<>();
        List<UnreadItem> entries = new ArrayList<>();
        for (long author = 1; author <= AUTHORS; author++) {
            for (ScoredValue<String> entry : scoped.sync().zrangeWithScores(keys.unread(user, author), 0, -1)) {
                entries.add(new UnreadItem(Long.parseLong(entry.getValue()), author, Instant.ofEpochMilli((long) entry.getScore())));
            }
            if (counts.containsKey(Long.toString(author))) byAuthor.put(author, Long.parseLong(counts.get(Long.toString(author))));
        }
        entries.sort(UnreadItem.NEWEST_FIRST);
        long total = Long.parseLong(counts.getOrDefault("total", "0"));
        return new Before(byAuthor, total, total - Long.parseLong(counts.getOrDefault("seen", "0")),
                Long.parseLong(counts.getOrDefault("notices", "0")), Long.parseLong(counts.getOrDefault("v", "0")), entries);
    }
}
