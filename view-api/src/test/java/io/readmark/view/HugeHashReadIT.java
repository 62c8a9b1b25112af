package io.readmark.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.schemas.Json;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counts reads and pushes of the users with the biggest hashes: one at the per-user cap with one unread entry per
 * author (the most author fields the scripts leave), one with a million fields in the audiences hash. Their answers
 * must be right (totals exact; every author listed, or for audiences a bounded part), no command of theirs may reach
 * Redis's slow log at a 10 ms threshold, and another user's reads meanwhile stay fast.
 *
 * <p>A Redis of its own, so the slow log holds only this test's commands. The audiences hash is filled directly by a
 * Lua loop (a million script calls would take minutes); the reads read only it.
 */
class HugeHashReadIT {

    private static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    private static final int FIELDS = 1_000_000;
    private static final int AUTHORS = UnreadLimits.DEFAULTS.maxUnreadPerUser();
    private static final long MANY_AUTHORS = 1, MANY_AUDIENCES = 2, OTHER = 3;
    /** The same as the first two, for the test that changes them. */
    private static final long PUSHED_AUTHORS = 4, PUSHED_AUDIENCES = 5;
    /** Far above what a shared machine's pauses add to one request, far below a read of a million fields. */
    private static final Duration MAX_BOUND = Duration.ofMillis(250);
    private static final String FILL = """
            for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do redis.call('HSET', KEYS[1], ARGV[3] .. i, ARGV[4] .. (ARGV[5] + ARGV[6] * i)) end
            return 0""";

    @AutoClose
    private static final EmbeddedRedis redis = EmbeddedRedis.start(0);
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.on(redis.url());
    @AutoClose
    private static final RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(30), false);
    private static final RedisClusterCommands<String, String> sync = connections.shared().sync();

    @BeforeAll
    static void fill() {
        // as many authors as the per-user cap, one unread each; ten of them seen
        view.write(writer -> {
            for (long user : new long[]{MANY_AUTHORS, PUSHED_AUTHORS}) {
                for (long author = 1; author <= AUTHORS; author++) writer.deliver(user, author, user * 10_000_000 + author, T0 + author * 1_000);
                writer.inboxSeen(user, T0 + 10_000);
            }
        });
        for (long user : new long[]{MANY_AUDIENCES, PUSHED_AUDIENCES}) {
            // a million audiences joined, and a notice floor past everyone's first notice
            String audiences = new NoticeKeys(view.config.keys().prefix()).audiences(user);
            fill(audiences, "a", "J", T0, 1);
            sync.hset(audiences, NoticeKeys.NOTICE_FLOOR, Long.toString(T0 + 1_500));
        }
        view.write(writer -> {
            for (long notice = 1; notice <= 3; notice++) writer.noticePublished(NoticeKeys.EVERYONE, notice, T0 + notice * 1_000, 0);
        });
        view.deliver(OTHER, 7, 1, 2);
    }

    /** Fields {@code <fieldPrefix><i>} for i in 1..FIELDS, valued {@code <valuePrefix><base + step × i>}. */
    private static void fill(String key, String fieldPrefix, String valuePrefix, long base, long step) {
        for (int from = 1; from <= FIELDS; from += 100_000) {
            sync.eval(FILL, ScriptOutputType.INTEGER, new String[]{key}, Integer.toString(from), Integer.toString(from + 99_999),
                    fieldPrefix, valuePrefix, Long.toString(base), Long.toString(step));
        }
        assertThat(sync.hlen(key)).isEqualTo(FIELDS);
    }

    @BeforeEach
    void watchSlowCommands() {
        sync.configSet("slowlog-log-slower-than", "10000");
        sync.slowlogReset();
    }

    @Test
    void shouldCountAUserAtThePerUserCapExactlyListingEveryAuthorWithoutASlowCommand() {
        JsonNode counts = ok("/v1/users/" + MANY_AUTHORS + "/unread");

        assertThat(counts.get("total").asLong()).isEqualTo(AUTHORS + 3);
        assertThat(counts.get("unseen").asLong()).isEqualTo(AUTHORS - 10);
        assertThat(counts.get("notices").asLong()).isEqualTo(3);
        assertListsEveryAuthor(counts, AUTHORS);
        assertThat(sync.slowlogGet()).as("commands slower than 10 ms").isEmpty();
    }

    @Test
    void shouldCountNoticesOfAUserInAMillionAudiencesWithoutASlowCommand() {
        JsonNode counts = ok("/v1/users/" + MANY_AUDIENCES + "/unread");

        assertThat(counts.get("notices").asLong()).as("everyone's notices after the floor").isEqualTo(2);
        assertThat(counts.get("total").asLong()).isEqualTo(2);
        assertThat(counts.has("authorsOmitted")).isFalse();
        assertThat(ok("/v1/users/" + MANY_AUDIENCES + "/notices").get("items")).hasSize(3);
        assertThat(sync.slowlogGet()).as("commands slower than 10 ms").isEmpty();
    }

    @Test
    void shouldPushTheCountsOfBothUsersWithoutASlowCommand() {
        try (SseClient authors = view.stream("/v1/users/" + PUSHED_AUTHORS + "/unread/stream", Map.of());
             SseClient audiences = view.stream("/v1/users/" + PUSHED_AUDIENCES + "/unread/stream", Map.of())) {
            assertThat(data(authors.nextEvent("counts")).get("total").asLong()).isEqualTo(AUTHORS + 3);
            assertThat(data(audiences.nextEvent("counts")).get("notices").asLong()).isEqualTo(2);

            view.deliver(PUSHED_AUTHORS, 2_000_000, 5);
            view.write(writer -> writer.noticeRead(PUSHED_AUDIENCES, 3, T0 + 10_000));

            // at the cap, the user's oldest unread made room
            JsonNode pushed = data(authors.nextEvent("counts"));
            assertThat(pushed.get("total").asLong()).isEqualTo(AUTHORS + 3);
            assertThat(pushed.get("changes").get(0).get("authorId").asLong()).isEqualTo(2_000_000);
            assertListsEveryAuthor(pushed, AUTHORS);
            assertThat(pushed.get("byAuthor").has("1")).as("the oldest author's one unread went").isFalse();
            assertThat(data(audiences.nextEvent("counts")).get("notices").asLong()).isEqualTo(1);
        }
        assertThat(sync.slowlogGet()).as("commands slower than 10 ms").isEmpty();
    }

    @Test
    void shouldAnswerAnotherUserFastWhileBothAreReadWithoutPause() throws Exception {
        for (long user : new long[]{OTHER, OTHER, OTHER, MANY_AUTHORS, MANY_AUDIENCES}) ok("/v1/users/" + user + "/unread");
        AtomicBoolean reading = new AtomicBoolean(true);
        ExecutorService heavy = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> heavyReads = new ArrayList<>();
            for (long user : new long[]{MANY_AUTHORS, MANY_AUDIENCES}) {
                heavyReads.add(heavy.submit(() -> {
                    int reads = 0;
                    while (reading.get()) {
                        assertThat(view.get("/v1/users/" + user + "/unread").statusCode()).isEqualTo(200);
                        reads++;
                    }
                    return reads;
                }));
            }
            long slowest = 0;
            for (int i = 0; i < 100; i++) {
                long started = System.nanoTime();
                JsonNode counts = ok("/v1/users/" + OTHER + "/unread");
                slowest = Math.max(slowest, System.nanoTime() - started);
                assertThat(counts.get("byAuthor").get("7").asLong()).isEqualTo(2);
            }
            reading.set(false);
            for (Future<Integer> reads : heavyReads) assertThat(reads.get()).as("heavy reads meanwhile").isPositive();
            assertThat(Duration.ofNanos(slowest)).as("slowest read of another user").isLessThan(MAX_BOUND);
            assertThat(view.management("/health/ready").statusCode()).as("the shared circuit breaker stayed closed").isEqualTo(200);
        } finally {
            reading.set(false);
            heavy.shutdownNow();
        }
    }

    /** byAuthor lists at most a few thousand of the authors, one unread each, and authorsOmitted counts the rest. */
    private static void assertListsEveryAuthor(JsonNode counts, int authors) {
        JsonNode byAuthor = counts.get("byAuthor");
        assertThat(byAuthor.size()).isEqualTo(authors);
        byAuthor.forEach(count -> assertThat(count.asLong()).isEqualTo(1));
        assertThat(counts.has("authorsOmitted")).isFalse();
    }

    private static JsonNode ok(String path) {
        HttpResponse<String> response = view.get(path);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return ViewApiFixture.json(response);
    }

    private static JsonNode data(SseClient.Message message) {
        try {
            return Json.MAPPER.readTree(message.data());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
