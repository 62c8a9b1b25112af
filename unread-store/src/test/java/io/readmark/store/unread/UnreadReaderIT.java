package io.readmark.store.unread;

import io.readmark.store.RedisFixture;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolVersion;
import io.readmark.infra.TestInfrastructure;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnreadReaderIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final long ALICE = 7;
    private static final long BOB = 9;
    @AutoClose
    private static final RedisFixture redis = new RedisFixture();

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static List<Long> ids(UnreadPage page) {
        return page.items().stream().map(UnreadItem::blogId).toList();
    }

    private static void deliver(long user, long... blogIds) {
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000))) {
            for (long blogId : blogIds) writer.deliver(user, ALICE, blogId, T0 + blogId * 1_000);
            writer.awaitAcknowledged();
        }
    }

    private static void deliverAt(long user, long author, long publishedAt, long... blogIds) {
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000))) {
            for (long blogId : blogIds) writer.deliver(user, author, blogId, publishedAt);
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
    void shouldReadTheCountsHashAlikeOverBothProtocols() {
        long user = 5002;
        redis.binary.sync().hset(redis.keys.hBytes(user), Map.of(bytes("total"), bytes("9"), bytes("seen"), bytes("4"),
                bytes("notices"), bytes("2"), bytes("7"), new byte[5 * 12], bytes("1000000000000"), new byte[2 * 12]));
        RedisClient client = RedisClient.create(TestInfrastructure.shared().redisUrl());
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
        try (StatefulRedisConnection<String, String> resp2 = client.connect()) {
            UnreadCounts overResp2 = resp2.sync().dispatch(CommandType.HGETALL, new CountsHashOutput(),
                    new CommandArgs<>(StringCodec.UTF8).addKey(redis.keys.h(user))).counts(user);
            UnreadCounts overResp3 = redis.reader().counts(user);

            assertThat(overResp3.total()).isEqualTo(9);
            assertThat(overResp3.unseen()).isEqualTo(5);
            assertThat(overResp3.targetedNotices()).isEqualTo(2);
            assertThat(overResp3.byAuthor()).isEqualTo(Map.of(7L, 5L, 1_000_000_000_000L, 2L));
            assertThat(overResp2).isEqualTo(overResp3);
            assertThat(redis.reader().countsAsync(user).toCompletableFuture().join()).isEqualTo(overResp3);
        } finally {
            client.shutdown();
        }
    }

    @Test
    void shouldFailACountsReadOfAHashThatHoldsNoNumber() {
        long user = 5003;
        redis.sync.hset(redis.keys.h(user), Map.of("total", "one"));

        assertThatThrownBy(() -> redis.reader().counts(user)).isInstanceOf(NumberFormatException.class).hasMessageContaining("\"one\"");
        assertThatThrownBy(() -> redis.reader().countsAsync(user).toCompletableFuture().join())
                .hasCauseInstanceOf(NumberFormatException.class);
    }

    @Test
    void shouldFailACountsReadOfAKeyOfAnotherType() {
        long user = 5004;
        redis.sync.set(redis.keys.h(user), "not a hash");

        assertThatThrownBy(() -> redis.reader().counts(user)).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageContaining("WRONGTYPE");
        assertThatThrownBy(() -> redis.reader().countsAsync(user).toCompletableFuture().join())
                .hasCauseInstanceOf(RedisCommandExecutionException.class);
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
        assertThat(first.items().getFirst().publishedAt().toEpochMilli()).isEqualTo(T0 + 11_000);
    }

    @Test
    void shouldNeitherRepeatNorSkipWhenItemsArriveAndAreReadBetweenPages() {
        long user = 5002;
        deliver(user, 10, 20, 30, 40, 50);
        UnreadReader reader = redis.reader();
        UnreadPage first = reader.page(user, ALICE, 2, null);

        deliver(user, 60);                         // newer: belongs before the cursor
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000))) {
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
    void shouldPageThroughBlogsPublishedInTheSameSecondWithoutLosingAny() {
        long user = 5005;
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000))) {
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

    @Test
    void shouldMergeAuthorsNewestSecondFirstAndBreakTiesByBlogIdAsText() {
        long user = 6001;
        deliverAt(user, ALICE, T0 + 5_000, 50);
        deliverAt(user, BOB, T0 + 4_000, 40);
        deliverAt(user, ALICE, T0 + 3_000, 8, 9, 10);   // "10" sorts before "8" as text, not as a number
        deliverAt(user, BOB, T0 + 3_999, 1, 2);         // the same second
        deliverAt(user, ALICE, T0 + 1_000, 100);

        List<UnreadItem> expected = List.of(
                new UnreadItem(50, ALICE, Instant.ofEpochMilli(T0 + 5_000)),
                new UnreadItem(40, BOB, Instant.ofEpochMilli(T0 + 4_000)),
                new UnreadItem(1, BOB, Instant.ofEpochMilli(T0 + 3_000)),
                new UnreadItem(10, ALICE, Instant.ofEpochMilli(T0 + 3_000)),
                new UnreadItem(2, BOB, Instant.ofEpochMilli(T0 + 3_000)),
                new UnreadItem(8, ALICE, Instant.ofEpochMilli(T0 + 3_000)),
                new UnreadItem(9, ALICE, Instant.ofEpochMilli(T0 + 3_000)),
                new UnreadItem(100, ALICE, Instant.ofEpochMilli(T0 + 1_000)));
        for (int limit = 1; limit <= expected.size() + 1; limit++) {
            assertThat(RedisFixture.mergedList(redis.reader(), user, limit)).as("pages of %d", limit).isEqualTo(expected);
        }
    }

    @Test
    void shouldNotSkipABlogWhenAPageEndsInsideARunOfEqualSecondsOfOneAuthor() {
        long user = 6002;
        deliverAt(user, ALICE, T0, 8, 9, 10);

        assertThat(RedisFixture.mergedList(redis.reader(), user, 1)).extracting(UnreadItem::blogId).containsExactly(10L, 8L, 9L);
    }

    @Test
    void shouldNeitherRepeatNorSkipAcrossAuthorsWhenItemsArriveAndAreReadBetweenPages() {
        long user = 6003;
        deliver(user, 10, 30, 50);
        deliverAt(user, BOB, T0 + 20_000, 20);
        deliverAt(user, BOB, T0 + 40_000, 40);
        UnreadPage first = redis.reader().mergedPage(user, 2, null);

        deliverAt(user, BOB, T0 + 60_000, 60);         // newer: belongs before the cursor
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000))) {
            writer.remove(user, BOB, 40, T0);          // already shown
            writer.remove(user, ALICE, 30, T0);        // not yet shown: simply gone
            writer.awaitAcknowledged();
        }
        List<Long> rest = new ArrayList<>();
        for (String cursor = first.nextCursor(); cursor != null; ) {
            UnreadPage page = redis.reader().mergedPage(user, 2, cursor);
            rest.addAll(ids(page));
            cursor = page.nextCursor();
        }

        assertThat(ids(first)).containsExactly(50L, 40L);
        assertThat(rest).containsExactly(20L, 10L);
    }

    @Test
    void shouldAnswerAnEmptyMergedPageForAUserRedisNeverSaw() {
        UnreadPage page = redis.reader().mergedPage(424242, 5, null);
        assertThat(page.items()).isEmpty();
        assertThat(page.nextCursor()).isNull();
    }

    @Test
    void shouldRunTheMergedPageScriptAgainWhenRedisLostIt() {
        long user = 6004;
        deliver(user, 1, 2);
        redis.sync.scriptFlush();
        assertThat(ids(redis.reader().mergedPage(user, 5, null))).containsExactly(2L, 1L);
    }

    @Test
    void shouldRejectACursorOfTheOtherList() {
        long user = 6005;
        deliver(user, 1, 2, 3);
        String perAuthor = redis.reader().page(user, ALICE, 1, null).nextCursor();
        String merged = redis.reader().mergedPage(user, 1, null).nextCursor();

        assertThatThrownBy(() -> redis.reader().mergedPage(user, 1, perAuthor)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> redis.reader().mergedPage(user, 1, "bm90LWEtY3Vyc29y")).isInstanceOf(InvalidCursorException.class);
        assertThat(ids(redis.reader().mergedPage(user, 1, merged))).containsExactly(2L);
    }

    @Test
    void shouldTellWhetherOneBlogIsUnread() {
        long user = 6006;
        deliver(user, 1, 2);
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000))) {
            writer.remove(user, ALICE, 2, T0);
            writer.awaitAcknowledged();
        }

        assertThat(redis.reader().isUnread(user, ALICE, 1)).isTrue();
        assertThat(redis.reader().isUnread(user, ALICE, 2)).as("read").isFalse();
        assertThat(redis.reader().isUnread(user, BOB, 1)).as("another author").isFalse();
        assertThat(redis.reader().isUnread(424242, ALICE, 1)).as("unknown user").isFalse();
    }

    @Test
    void shouldContinueAfterACursorWhoseEntryWasReadInsideARunOfEqualSecondsAcrossAuthors() {
        long user = 6007;
        long big = Long.MAX_VALUE;
        deliverAt(user, ALICE, T0, 1, 2, 3);
        deliverAt(user, BOB, T0, 255, 256);
        deliverAt(user, big, T0, 4);
        deliverAt(user, ALICE, T0 - 1, 9);
        UnreadPage first = redis.reader().mergedPage(user, 3, null);     // 1@ALICE, 2@ALICE, 255@BOB
        try (UnreadWriter writer = redis.writer(new UnreadLimits(1000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000))) {
            writer.remove(user, BOB, 255, T0);                          // the cursor's entry is gone
            writer.awaitAcknowledged();
        }

        UnreadPage second = redis.reader().mergedPage(user, 3, first.nextCursor());

        assertThat(first.items()).extracting(UnreadItem::blogId).containsExactly(1L, 2L, 255L);
        assertThat(second.items()).extracting(UnreadItem::blogId).containsExactly(256L, 3L, 4L);
        assertThat(ids(redis.reader().mergedPage(user, 3, second.nextCursor()))).containsExactly(9L);
    }
}
