package io.readmark.bench.layouts;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadLimits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every candidate layout of the study against a real Redis, held to the same rules, so that the study's figures
 * compare layouts doing the same work: replays change nothing, counts equal what both pages list, reads and read-alls
 * remove what they cover and keep late deliveries out, the per-author cap trims the oldest, ids above 2^53 keep
 * their value, and a burst delivery does what single deliveries do. Times are whole seconds, the candidates' resolution.
 */
class LayoutContractIT {

    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final int CAP = 8;
    private static final int PAGE = 3;
    /** Users 1..6 get the post one delivery each, their twins 101..106 in one burst: one state of {@link #before} each. */
    private static final int BURST_STATES = 6;

    private static EmbeddedRedis server;
    private static RedisConnections redis;

    @BeforeAll
    static void start() {
        server = EmbeddedRedis.start(0);
        redis = RedisConnections.connect(server.url(), Duration.ofSeconds(30), false);
    }

    @AfterAll
    static void stop() {
        redis.close();
        server.close();
    }

    static Stream<Named<BiFunction<RedisConnections, Integer, Layout>>> layouts() {
        return Stream.of(
                Named.of("L0", (redis, cap) -> new PreviousLayout(redis, cap, 1000)),
                Named.of("A", (redis, cap) -> new ProductLayout(redis, limits(cap))),
                Named.of("B", (redis, cap) -> new TinyInlineLayout(redis, cap, 1000)),
                Named.of("A/stock", (redis, cap) -> ProductLayout.onStockListpacks(redis, limits(cap))));
    }

    /** The layouts with a grouped delivery path (B has none). */
    static Stream<Named<BiFunction<RedisConnections, Integer, Layout>>> burstLayouts() {
        return layouts().filter(layout -> !layout.getName().equals("B"));
    }

    private static UnreadLimits limits(int cap) {
        return new UnreadLimits(cap, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 1000);
    }

    private static Layout open(BiFunction<RedisConnections, Integer, Layout> factory) {
        redis.shared().sync().flushall();
        Layout layout = factory.apply(redis, CAP);
        redis.shared().sync().configSet("hash-max-ziplist-value", "64");
        redis.shared().sync().configSet("zset-max-ziplist-entries", "128");
        layout.redisConfig().forEach((name, value) -> redis.shared().sync().configSet(name, value));
        return layout;
    }

    private static long at(int seconds) {
        return T0 + seconds * 1000L;
    }

    private static Layout.Item item(long blog, long author, int seconds) {
        return new Layout.Item(blog, author, at(seconds) / 1000);
    }

    private static List<Layout.Item> merged(Layout layout, long user) {
        List<Layout.Item> items = new ArrayList<>();
        String cursor = null;
        do {
            Layout.Page page = layout.mergedPage(user, PAGE, cursor);
            items.addAll(page.items());
            cursor = page.cursor();
        } while (cursor != null);
        return items;
    }

    private static List<Layout.Item> byAuthor(Layout layout, long user, long author) {
        List<Layout.Item> items = new ArrayList<>();
        String cursor = null;
        do {
            Layout.Page page = layout.authorPage(user, author, PAGE, cursor);
            items.addAll(page.items());
            cursor = page.cursor();
        } while (cursor != null);
        return items;
    }

    /** Counts, total and both pages agree, and say exactly {@code expected}, newest first. */
    private static void assertUnread(Layout layout, long user, List<Layout.Item> expected) {
        Layout.Counts counts = layout.counts(user);
        assertThat(counts.total()).as("total").isEqualTo(expected.size());
        assertThat(counts.byAuthor().values().stream().mapToLong(Long::longValue).sum()).as("sum of the author counts").isEqualTo(expected.size());
        assertThat(merged(layout, user)).as("merged pages").containsExactlyElementsOf(expected);
        for (Map.Entry<Long, Long> author : counts.byAuthor().entrySet()) {
            List<Layout.Item> ofAuthor = expected.stream().filter(item -> item.authorId() == author.getKey()).toList();
            assertThat(author.getValue()).as("count of author " + author.getKey()).isEqualTo(ofAuthor.size());
            assertThat(byAuthor(layout, user, author.getKey())).as("pages of author " + author.getKey()).containsExactlyElementsOf(ofAuthor);
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void replayedDeliveriesChangeNothingAndCountsMatchBothPages(BiFunction<RedisConnections, Integer, Layout> factory) {
        try (Layout layout = open(factory)) {
            for (int round = 0; round < 2; round++) {
                for (int i = 1; i <= 8; i++) layout.deliver(1, 10, 100 + i, at(i));
                for (int i = 1; i <= 3; i++) layout.deliver(1, 20, 200 + i, at(100 + i));
                layout.deliver(2, 10, 101, at(1));
                layout.deliver(2, 20, 201, at(101));
            }
            layout.awaitWritten();
            List<Layout.Item> expected = new ArrayList<>();
            for (int i = 3; i >= 1; i--) expected.add(item(200 + i, 20, 100 + i));
            for (int i = 8; i >= 1; i--) expected.add(item(100 + i, 10, i));
            assertUnread(layout, 1, expected);
            assertUnread(layout, 2, List.of(item(201, 20, 101), item(101, 10, 1)));
            assertUnread(layout, 3, List.of());
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aReadRemovesTheEntryOnceAndKeepsLaterDeliveriesOfItOut(BiFunction<RedisConnections, Integer, Layout> factory) {
        try (Layout layout = open(factory)) {
            layout.deliver(3, 10, 101, at(1));
            layout.deliver(3, 10, 102, at(2));
            layout.read(3, 10, 101, at(50));
            layout.read(3, 10, 101, at(51));
            layout.deliver(3, 10, 101, at(1));
            layout.read(3, 10, 150, at(52)); // read before its delivery arrives
            layout.deliver(3, 10, 150, at(3));
            layout.awaitWritten();
            assertUnread(layout, 3, List.of(item(102, 10, 2)));
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void anAuthorReadAllRemovesWhatIsThatOldAndKeepsOlderLateDeliveriesOut(BiFunction<RedisConnections, Integer, Layout> factory) {
        try (Layout layout = open(factory)) {
            for (int i = 1; i <= 5; i++) layout.deliver(4, 10, 100 + i, at(i));
            layout.deliver(4, 20, 201, at(2));
            layout.readAll(4, 10, at(3));
            layout.readAll(4, 10, at(3));
            layout.deliver(4, 10, 99, at(2));
            layout.deliver(4, 10, 106, at(6));
            layout.awaitWritten();
            assertUnread(layout, 4, List.of(item(106, 10, 6), item(105, 10, 5), item(104, 10, 4), item(201, 20, 2)));
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void allReadRemovesEverythingThatOldAndKeepsOlderLateDeliveriesOut(BiFunction<RedisConnections, Integer, Layout> factory) {
        try (Layout layout = open(factory)) {
            for (int i = 1; i <= 4; i++) layout.deliver(5, 10, 100 + i, at(i));
            for (int i = 1; i <= 3; i++) layout.deliver(5, 20, 200 + i, at(4 + i));
            layout.allRead(5, at(5));
            layout.allRead(5, at(5));
            layout.deliver(5, 10, 105, at(3));
            layout.deliver(5, 10, 106, at(8));
            layout.awaitWritten();
            assertUnread(layout, 5, List.of(item(106, 10, 8), item(203, 20, 7), item(202, 20, 6)));
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void theCapKeepsTheNewestAndATrimmedPostStaysOut(BiFunction<RedisConnections, Integer, Layout> factory) {
        try (Layout layout = open(factory)) {
            for (int i = 1; i <= CAP + 2; i++) layout.deliver(6, 10, 100 + i, at(i));
            layout.deliver(6, 10, 101, at(1));
            layout.awaitWritten();
            List<Layout.Item> expected = new ArrayList<>();
            for (int i = CAP + 2; i >= 3; i--) expected.add(item(100 + i, 10, i));
            assertUnread(layout, 6, expected);
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void idsAboveTwoToThe53KeepTheirValue(BiFunction<RedisConnections, Integer, Layout> factory) {
        long author = Long.MAX_VALUE, small = (1L << 53) + 1, large = Long.MAX_VALUE - 1;
        try (Layout layout = open(factory)) {
            layout.deliver(7, author, small, at(1));
            layout.deliver(7, author, large, at(2));
            layout.awaitWritten();
            assertUnread(layout, 7, List.of(item(large, author, 2), item(small, author, 1)));
            layout.readAll(7, author, at(1));
            layout.awaitWritten();
            assertUnread(layout, 7, List.of(item(large, author, 2)));
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aMergedPageContinuesAfterItsCursorWhenThatEntryWasReadMeanwhile(BiFunction<RedisConnections, Integer, Layout> factory) {
        try (Layout layout = open(factory)) {
            for (int i = 1; i <= 5; i++) layout.deliver(8, 10 + i % 2, 100 + i, at(i));
            layout.awaitWritten();
            Layout.Page first = layout.mergedPage(8, 2, null);
            assertThat(first.items()).containsExactly(item(105, 11, 5), item(104, 10, 4));
            layout.read(8, 10, 104, at(60));
            layout.awaitWritten();
            Layout.Page second = layout.mergedPage(8, 2, first.cursor());
            assertThat(second.items()).containsExactly(item(103, 11, 3), item(102, 10, 2));
        }
    }

    @ParameterizedTest
    @MethodSource("burstLayouts")
    void aBurstDeliversToEachUserWhatASingleDeliveryWould(BiFunction<RedisConnections, Integer, Layout> factory) {
        try (Layout layout = open(factory)) {
            assertThat(layout.deliversInBursts()).as("a layout of burstLayouts() delivers in bursts").isTrue();
            List<Long> burst = new ArrayList<>();
            for (long user = 1; user <= BURST_STATES; user++) {
                before(layout, user);
                before(layout, user + 100);
                layout.deliver(user, 10, 104, at(4));
                burst.add(user + 100);
            }
            layout.deliverToEach(burst, 10, 104, at(4));
            layout.deliverToEach(burst, 10, 104, at(4));
            layout.awaitWritten();
            assertUnread(layout, 105, List.of(item(104, 10, 4)));
            for (long user = 1; user <= BURST_STATES; user++) {
                Layout.Counts counts = layout.counts(user);
                assertThat(layout.counts(user + 100)).as("counts of user " + user + "'s twin").isEqualTo(counts);
                assertThat(merged(layout, user + 100)).as("merged pages of user " + user + "'s twin").isEqualTo(merged(layout, user));
                for (long author : counts.byAuthor().keySet()) {
                    assertThat(byAuthor(layout, user + 100, author)).as("pages of user " + user + "'s twin").isEqualTo(byAuthor(layout, user, author));
                }
            }
        }
    }

    /**
     * What the user has before author 10's post 104 of second 4 arrives: older unread of it and of another author, a
     * read of the post, a read-all covering it, the cap full of newer posts, nothing, the post itself.
     */
    private static void before(Layout layout, long user) {
        switch ((int) (user % 100)) {
            case 1 -> {
                for (int i = 1; i <= 3; i++) layout.deliver(user, 10, 100 + i, at(i));
                layout.deliver(user, 20, 201, at(2));
            }
            case 2 -> layout.read(user, 10, 104, at(50));
            case 3 -> {
                layout.deliver(user, 10, 105, at(5));
                layout.readAll(user, 10, at(5));
            }
            case 4 -> {
                for (int i = 1; i <= CAP; i++) layout.deliver(user, 10, 110 + i, at(10 + i));
            }
            case 5 -> {
                // nothing yet
            }
            default -> layout.deliver(user, 10, 104, at(4));
        }
    }
}
