package io.readmark.store.unread;

import io.readmark.store.RedisFixture;
import io.readmark.store.notice.KeepingHints;
import io.readmark.store.notice.KnownReads;
import io.readmark.store.notice.LiveNoticeSource;
import io.readmark.store.notice.MembershipHints;
import io.readmark.store.notice.NoticeItem;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.notice.NoticeLimits;
import io.readmark.store.notice.NoticePage;
import io.readmark.store.notice.NoticeReader;
import io.readmark.store.notice.NoticeState;

import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Long random sequences of every change — duplicates, reads before deliveries, deletes, read-alls, unfollows and
 * re-follows —
 * applied to the real scripts on a real Redis and to {@link UnreadModel}; afterwards Redis must equal the model
 * and the DESIGN invariants must hold for every user, the merged index must be the union of the unread sets, and the
 * merged list read page by page must be the model's list in its total order. A failure names its seed; rerun just that one with
 * {@code -Dreadmark.model.seed=<seed> -Dreadmark.model.sequences=1}.
 */
class UnreadModelIT {

    private static final long BASE_SEED = Long.getLong("readmark.model.seed", 20_261_121L);
    private static final int SEQUENCES = Integer.getInteger("readmark.model.sequences", 200);
    private static final int EVENTS = Integer.getInteger("readmark.model.events", 500);
    /** Small bounds, so trimming per author, per user and of tombstones happens all the time. */
    private static final UnreadLimits TIGHT = new UnreadLimits(4, 10, 12, new NoticeLimits(3, 4, 6, 3));
    /** Bounds that never bind: with them, concurrent writers' changes commute. */
    private static final UnreadLimits LOOSE = new UnreadLimits(100_000, 100_000, 100_000);

    /** Changes between the reads of a reader that keeps read marks. */
    private static final int STEP = 25;
    @AutoClose
    private static final RedisFixture redis = new RedisFixture();

    @Test
    void shouldMatchTheModelForEverySequenceAppliedInOrder() {
        for (int i = 0; i < SEQUENCES; i++) {
            long seed = BASE_SEED + i;
            RandomWorkload workload = new RandomWorkload(seed, EVENTS);
            List<UnreadOp> ops = workload.interleaved(seed);
            UnreadModel model = new UnreadModel(TIGHT);
            RedisFixture.Scoped scoped = redis.scoped("model-" + seed);
            Versions versions = new Versions();
            versions.assertGrewWithEveryChange(scoped, model, "seed " + seed + " before any change");
            // A reader that keeps what it learns reads between steps, so its kept read marks meet every change.
            NoticeReader keeping = new NoticeReader(redis.redis.shared(), scoped.keys(),
                    LiveNoticeSource.direct(new NoticeKeys(scoped.keys().prefix())), new KeepingHints(), () -> RandomWorkload.READ_AT);
            try (UnreadWriter writer = scoped.writer(TIGHT)) {
                for (int from = 0; from < ops.size(); from += STEP) {
                    List<UnreadOp> step = ops.subList(from, Math.min(ops.size(), from + STEP));
                    step.forEach(op -> op.applyTo(writer));
                    writer.awaitAcknowledged();
                    step.forEach(op -> op.applyTo(model));
                    versions.assertGrewWithEveryChange(scoped, model, "seed " + seed + " after " + (from + step.size()) + " changes");
                    for (long user = 1; user <= RandomWorkload.USERS; user++) {
                        assertThat(keeping.broadcastUnreadAsync(user).toCompletableFuture().join().count())
                                .as("unread broadcasts of user %d after %d changes, kept marks, seed %d", user, from + step.size(), seed)
                                .isEqualTo(model.unreadBroadcasts(user, RandomWorkload.READ_AT));
                    }
                }
            }
            assertSameState(scoped, model, seed, true);
        }
    }

    @Test
    void shouldMatchTheModelWhenBlogAndReadStreamsAreWrittenConcurrently() {
        for (int i = 0; i < SEQUENCES / 4; i++) {
            long seed = BASE_SEED + 1_000_000 + i;
            RandomWorkload workload = new RandomWorkload(seed, EVENTS);
            RedisFixture.Scoped scoped = redis.scoped("concurrent-" + seed);
            // Two stream threads, as in a deployment: blog/follow events and read events race per user.
            CompletableFuture<Void> authors = CompletableFuture.runAsync(() -> applyAll(scoped, workload.authorStream));
            CompletableFuture<Void> readers = CompletableFuture.runAsync(() -> applyAll(scoped, workload.readerStream));
            CompletableFuture.allOf(authors, readers).join();

            UnreadModel model = new UnreadModel(LOOSE);
            workload.authorStream.forEach(op -> op.applyTo(model));
            workload.readerStream.forEach(op -> op.applyTo(model));
            // Which of a delete and a read marks a blog last is a race; only whether it is marked is not.
            assertSameState(scoped, model, seed, false);

            // Every event again, in order: a replay changes nothing, so no version may move (clients would re-read). Not
            // the follows: follow.lua records only a re-follow, so a follow that came before its unfollow is no replay.
            Map<Long, String> before = versionsOf(scoped);
            applyAll(scoped, workload.authorStream.stream().filter(op -> !(op instanceof UnreadOp.Follow)).toList());
            applyAll(scoped, workload.readerStream);
            assertThat(versionsOf(scoped)).as("versions after replaying every event, seed %d", seed).isEqualTo(before);
            assertSameState(scoped, model, seed, false);
        }
    }

    private static Map<Long, String> versionsOf(RedisFixture.Scoped scoped) {
        Map<Long, String> versions = new TreeMap<>();
        for (long user = 1; user <= RandomWorkload.USERS; user++) {
            versions.put(user, String.valueOf(scoped.sync().hget(scoped.keys().h(user), "v")));
        }
        return versions;
    }

    private static Map<String, String> withoutVersion(Map<String, String> counts) {
        Map<String, String> fields = new TreeMap<>(counts);
        fields.remove("v");
        return fields;
    }

    /**
     * Each user's state version against what the user sees of their own keys (the model's counts, unread sets, notice
     * reads and memberships): it never goes back, and it grew whenever that changed.
     */
    private static final class Versions {
        private final Map<Long, Long> version = new HashMap<>();
        private final Map<Long, Object> seen = new HashMap<>();

        void assertGrewWithEveryChange(RedisFixture.Scoped scoped, UnreadModel model, String context) {
            for (long user = 1; user <= RandomWorkload.USERS; user++) {
                String stored = scoped.sync().hget(scoped.keys().h(user), "v");
                long now = stored == null ? 0 : Long.parseLong(stored);
                // The notice inbox is left out: a notice sent already read changes no count, and no version.
                List<Object> visible = new ArrayList<>(List.of(model.counts(user), model.noticeReadsOf(user), model.audiencesOf(user)));
                for (int index = 1; index <= RandomWorkload.AUTHORS; index++) visible.add(model.unreadOf(user, RandomWorkload.authorId(index)));
                long before = version.getOrDefault(user, 0L);
                assertThat(now).as("version of user %d, %s", user, context).isGreaterThanOrEqualTo(before);
                if (seen.containsKey(user) && !visible.equals(seen.get(user))) {
                    assertThat(now).as("version of user %d after a change they see, %s: %s, then %s", user, context, seen.get(user), visible).isGreaterThan(before);
                }
                version.put(user, now);
                seen.put(user, visible);
            }
        }
    }

    private static void assertSameAudiences(RedisFixture.Scoped scoped, UnreadModel model, String context) {
        NoticeKeys noticeKeys = new NoticeKeys(scoped.keys().prefix());
        for (String audience : RandomWorkload.AUDIENCES) {
            assertThat(entries(scoped.sync().zrangeWithScores(noticeKeys.audienceNotices(audience), 0, -1)))
                    .as("live notices of %s, %s", audience, context).containsExactlyElementsOf(model.audienceNoticesOf(audience));
            assertThat(entries(scoped.sync().zrangeWithScores(noticeKeys.audienceWithdrawn(audience), 0, -1)))
                    .as("withdrawn notices of %s, %s", audience, context).containsExactlyElementsOf(model.withdrawnOf(audience));
        }
    }

    private static void applyAll(RedisFixture.Scoped scoped, List<UnreadOp> ops) {
        try (UnreadWriter writer = scoped.writer(LOOSE)) {
            ops.forEach(op -> op.applyTo(writer));
            writer.awaitAcknowledged();
        }
    }

    private static void assertSameState(RedisFixture.Scoped scoped, UnreadModel model, long seed, boolean markTimesExact) {
        String context = "seed " + seed + " (rerun: -Dreadmark.model.seed=" + seed + " -Dreadmark.model.sequences=1)";
        UnreadKeys keys = scoped.keys();
        assertSameAudiences(scoped, model, context);
        for (long user = 1; user <= RandomWorkload.USERS; user++) {
            assertThat(withoutVersion(scoped.countsFields(user))).as("counts of user %d, %s", user, context)
                    .isEqualTo(model.counts(user));
            List<UnreadModel.Entry> z = entries(scoped.sync().zrangeWithScores(keys.z(user), 0, -1));
            if (markTimesExact) {
                assertThat(z).as("z of user %d, %s", user, context).containsExactlyElementsOf(model.zOf(user));
            } else {
                // Which of a delete and a read marks a blog first is a race; only whether it is a tombstone is not.
                assertThat(z.stream().map(entry -> entry.score() > 0 ? "tombstone " + entry.member() : entry.toString()).collect(Collectors.toSet()))
                        .as("z of user %d, %s", user, context)
                        .isEqualTo(model.zOf(user).stream().map(entry -> entry.score() > 0 ? "tombstone " + entry.member() : entry.toString())
                                .collect(Collectors.toSet()));
            }
            UnreadReader pages = new UnreadReader(redis.redis.shared(), keys);
            for (int index = 1; index <= RandomWorkload.AUTHORS; index++) {
                long author = RandomWorkload.authorId(index);
                assertThat(RedisFixture.authorList(pages, user, author, 2)).as("unread of user %d by author %d in pages of 2, %s", user, author, context)
                        .containsExactlyElementsOf(model.authorListOf(user, author));
            }
            assertThat(effective(scoped.sync().hgetall(keys.floors(user)))).as("floors of user %d, %s", user, context)
                    .isEqualTo(effective(model.floorsOf(user)));
            NoticeKeys noticeKeys = new NoticeKeys(keys.prefix());
            assertThat(entries(scoped.sync().zrangeWithScores(noticeKeys.inbox(user), 0, -1))).as("notice inbox of user %d, %s", user, context)
                    .containsExactlyElementsOf(model.inboxOf(user));
            assertThat(entries(scoped.sync().zrangeWithScores(noticeKeys.noticeReads(user), 0, -1))).as("notice reads of user %d, %s", user, context)
                    .containsExactlyElementsOf(model.noticeReadsOf(user));
            Map<String, String> audiences = scoped.sync().hgetall(noticeKeys.audiences(user));
            // The read marks' stamp changes with every read: there exactly when marks are (notice_read.lua).
            assertThat(audiences.remove(NoticeKeys.READS_STAMP) != null).as("reads stamp of user %d, %s", user, context)
                    .isEqualTo(!model.noticeReadsOf(user).isEmpty());
            assertThat(audiences).as("audiences of user %d, %s", user, context).isEqualTo(model.audiencesOf(user));
            assertSameNotices(scoped, model, user, context);
            scoped.assertInvariants(user, context);
            List<UnreadItem> expected = model.mergedOf(user);
            assertThat(scoped.entries(user)).as("records of user %d, %s", user, context)
                    .containsExactlyElementsOf(expected);
            UnreadReader reader = new UnreadReader(redis.redis.shared(), keys);
            for (int limit : new int[]{1, 2, 3, 7}) {
                assertThat(RedisFixture.mergedList(reader, user, limit)).as("merged pages of %d of user %d, %s", limit, user, context)
                        .containsExactlyElementsOf(expected);
            }
            // A cursor of an entry that is not there (read meanwhile) in the same second as each item continues with
            // what follows it in the list's order.
            for (int i = 0; i < expected.size(); i++) {
                UnreadItem item = expected.get(i);
                for (long gone : new long[]{item.blogId() + 1, Math.max(1, item.blogId() / 10)}) {
                    UnreadItem cursor = new UnreadItem(gone, item.authorId(), item.publishedAt());
                    if (expected.stream().anyMatch(other -> other.blogId() == gone)) continue;
                    List<UnreadItem> after = expected.stream().filter(other -> UnreadItem.NEWEST_FIRST.compare(cursor, other) < 0).limit(3).toList();
                    assertThat(reader.mergedPage(user, 3, MergedCursor.encode(cursor)).items())
                            .as("page after a cursor of blog %d at item %d of user %d, %s", gone, i, user, context).containsExactlyElementsOf(after);
                }
            }
        }
    }

    /** What the view API reads of the user's notices: the unread broadcasts and the notice inbox page by page. */
    private static void assertSameNotices(RedisFixture.Scoped scoped, UnreadModel model, long user, String context) {
        NoticeReader reader = new NoticeReader(redis.redis.shared(), scoped.keys(),
                LiveNoticeSource.direct(new NoticeKeys(scoped.keys().prefix())), () -> RandomWorkload.READ_AT);
        long expectedUnread = model.unreadBroadcasts(user, RandomWorkload.READ_AT);
        assertThat(reader.broadcastUnreadAsync(user).toCompletableFuture().join().count())
                .as("unread broadcasts of user %d, %s", user, context).isEqualTo(expectedUnread);
        // A reader's guess of the user's audiences changes only which round trip asks for what: right, too many, too few.
        for (Set<String> guess : List.of(Set.of("a.1", "a.2"), Set.of("a.1"), Set.of("a.2", "not-an-audience"))) {
            NoticeReader guessing = new NoticeReader(redis.redis.shared(), scoped.keys(),
                    LiveNoticeSource.direct(new NoticeKeys(scoped.keys().prefix())), new FixedGuess(guess), () -> RandomWorkload.READ_AT);
            assertThat(guessing.broadcastUnreadAsync(user).toCompletableFuture().join().count())
                    .as("unread broadcasts of user %d guessing %s, %s", user, guess, context).isEqualTo(expectedUnread);
        }
        List<NoticeItem> expected = model.noticeInbox(user, RandomWorkload.READ_AT);
        for (int limit : new int[]{1, 3, 7}) {
            List<NoticeItem> all = new ArrayList<>();
            String cursor = null;
            do {
                NoticePage page = reader.page(user, limit, cursor);
                assertThat(page.items().size()).isLessThanOrEqualTo(limit);
                all.addAll(page.items());
                cursor = page.nextCursor();
            } while (cursor != null);
            assertThat(all).as("notice inbox in pages of %d of user %d, %s", limit, user, context).containsExactlyElementsOf(expected);
        }
        for (NoticeItem item : expected) {
            assertThat(reader.notice(user, item.noticeId())).as("notice %d of user %d, %s", item.noticeId(), user, context)
                    .isEqualTo(new NoticeState(item.noticeId(), true, item.read(), item));
        }
    }

    /** Always guesses the same audiences. */
    private record FixedGuess(Set<String> guess) implements MembershipHints {
        @Override
        public Set<String> audiences(long userId) {
            return guess;
        }

        @Override
        public KnownReads reads(long userId) {
            return null;
        }

        @Override
        public void remember(long userId, Set<String> audiences, KnownReads reads) {
        }
    }

    /**
     * A floors hash without the author floors at or below the user's floor for every author: they keep nothing out.
     * An all-read's removals are sent once its first step is answered, after writes that followed it; a delivery
     * in between may trim an entry the removals would have taken and raise its author's floor up to that entry only.
     */
    private static Map<String, String> effective(Map<String, String> floors) {
        Map<String, String> effective = new TreeMap<>(floors);
        String all = floors.get("all");
        if (all != null) {
            effective.entrySet().removeIf(field -> UnreadKeys.id(field.getKey()) > 0 && Long.parseLong(field.getValue()) <= Long.parseLong(all));
        }
        return effective;
    }

    private static List<UnreadModel.Entry> entries(List<ScoredValue<String>> values) {
        return values.stream().map(v -> new UnreadModel.Entry((long) v.getScore(), v.getValue())).toList();
    }
}
