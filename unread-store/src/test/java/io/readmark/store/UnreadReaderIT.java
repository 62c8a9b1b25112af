package io.readmark.store;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnreadReaderIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final long ALICE = 7;
    private static final RedisFixture redis = new RedisFixture();

    @AfterAll
    static void closeRedis() {
        redis.close();
    }

    private static List<Long> ids(UnreadPage page) {
        return page.items().stream().map(UnreadItem::blogId).toList();
    }

    private static void deliver(long user, long... blogIds) {
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, 1000))) {
            for (long blogId : blogIds) writer.deliver(user, ALICE, blogId, T0 + blogId);
            writer.awaitAcknowledged();
        }
    }

    @Test
    void shouldAnswerZeroForAUserRedisNeverSaw() {
        UnreadCounts counts = redis.reader().counts(424242);
        assertThat(counts.total()).isZero();
        assertThat(counts.byAuthor()).isEmpty();
    }

    @Test
    void shouldPageNewestFirstLikeTheSeedSequence() {
        long user = 5001;
        deliver(user, 2, 3, 4, 6, 8, 10, 11);
        UnreadReader reader = redis.reader();

        UnreadPage first = reader.page(user, ALICE, 3, null);
        UnreadPage second = reader.page(user, ALICE, 3, first.nextCursor());
        UnreadPage third = reader.page(user, ALICE, 3, second.nextCursor());

        assertThat(ids(first)).containsExactly(11L, 10L, 8L);
        assertThat(ids(second)).containsExactly(6L, 4L, 3L);
        assertThat(ids(third)).containsExactly(2L);
        assertThat(third.nextCursor()).isNull();
        assertThat(first.items().getFirst().publishedAt().toEpochMilli()).isEqualTo(T0 + 11);
    }

    @Test
    void shouldNeitherRepeatNorSkipWhenItemsArriveAndAreReadBetweenPages() {
        long user = 5002;
        deliver(user, 10, 20, 30, 40, 50);
        UnreadReader reader = redis.reader();
        UnreadPage first = reader.page(user, ALICE, 2, null);

        deliver(user, 60);                         // newer: belongs before the cursor
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, 1000))) {
            writer.remove(user, ALICE, 50, T0);    // already shown
            writer.remove(user, ALICE, 30, T0);    // not yet shown: simply gone
            writer.awaitAcknowledged();
        }
        List<Long> rest = new ArrayList<>();
        for (String cursor = first.nextCursor(); cursor != null; ) {
            UnreadPage page = reader.page(user, ALICE, 2, cursor);
            rest.addAll(ids(page));
            cursor = page.nextCursor();
        }

        assertThat(ids(first)).containsExactly(50L, 40L);
        assertThat(rest).containsExactly(20L, 10L);
    }

    @Test
    void shouldPageThroughBlogsPublishedInTheSameMillisecondWithoutLosingAny() {
        long user = 5003;
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, 1000))) {
            for (long blogId = 1; blogId <= 9; blogId++) writer.deliver(user, ALICE, blogId, T0);
            writer.awaitAcknowledged();
        }
        List<Long> all = new ArrayList<>();
        String cursor = null;
        do {
            UnreadPage page = redis.reader().page(user, ALICE, 2, cursor);
            all.addAll(ids(page));
            cursor = page.nextCursor();
        } while (cursor != null);
        assertThat(all).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L).doesNotHaveDuplicates();
    }

    @Test
    void shouldRejectACursorItDidNotIssue() {
        assertThatThrownBy(() -> redis.reader().page(1, ALICE, 3, "bm90LWEtY3Vyc29y"))
                .isInstanceOf(InvalidCursorException.class).hasMessageContaining("cursor");
        assertThatThrownBy(() -> redis.reader().page(1, ALICE, 3, "%%%"))
                .isInstanceOf(InvalidCursorException.class);
    }
}
