package io.readmark.view.push;

import io.readmark.view.SseClient;
import io.readmark.view.ViewApiFixture;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.readmark.view.ViewApiFixture.metric;
import static io.readmark.view.push.Pushes.expectPush;
import static io.readmark.view.push.Pushes.json;
import static io.readmark.view.push.Pushes.path;
import static io.readmark.view.ViewApiFixture.publishedAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /v1/users/{userId}/unread/stream} over real HTTP and a real Redis, changes made by the real scripts: the
 * snapshot, then one push per change, each with counts that a following GET returns too.
 */
public class UnreadStreamIT {

    private static final long ALICE = 7;
    private static final long BOB = 9;
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis(Map.of(StreamSettings.HEARTBEAT, "PT0.3S"));
    private static final AtomicLong users = new AtomicLong(5_000);

    @Test
    void shouldSendTheSnapshotThenEveryChangeWithTheCountsAFollowingGetReturns() {
        long user = users.incrementAndGet();
        view.deliver(user, ALICE, 1, 2, 3);
        view.deliver(user, BOB, 10);

        try (SseClient stream = view.stream(path(user), Map.of())) {
            assertThat(stream.status).isEqualTo(200);
            assertThat(stream.headers.get("content-type")).startsWith("text/event-stream");
            assertThat(Long.parseLong(stream.next(Duration.ofSeconds(5)).retry())).isBetween(3_000L, 6_000L);
            SseClient.Message snapshot = stream.nextEvent("counts");
            assertThat(snapshot.data()).isEqualTo(view.get("/v1/users/" + user + "/unread").body());

            view.deliver(user, ALICE, 4);
            expectPush(view, stream, user, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":4}]");
            view.read(user, ALICE, 1);
            expectPush(view, stream, user, "[{\"kind\":\"read\",\"authorId\":7,\"blogId\":1}]");
            view.delete(user, ALICE, 2);
            expectPush(view, stream, user, "[{\"kind\":\"removed\",\"authorId\":7,\"blogId\":2}]");
            view.readAll(user, ALICE, publishedAt(4));
            expectPush(view, stream, user, "[{\"kind\":\"read-all\",\"authorId\":7}]");
            view.unfollow(user, BOB);
            JsonNode last = expectPush(view, stream, user, "[{\"kind\":\"unfollowed\",\"authorId\":9}]");
            assertThat(last.get("total").asLong()).isZero();
        }
    }

    @Test
    void shouldNumberEveryChangeOfTheUserWithTheNextVersionAndNoBroadcast() {
        long user = users.incrementAndGet();
        String audience = "team-" + user;
        view.deliver(user, ALICE, 1);
        view.write(writer -> writer.audienceJoined(user, audience, publishedAt(0).toEpochMilli()));

        try (SseClient stream = view.stream(path(user), Map.of())) {
            long version = json(stream.nextEvent("counts").data()).get("version").asLong();
            assertThat(version).isPositive();

            view.deliver(user, ALICE, 2);
            version = expectNextVersion(expectPush(view, stream, user, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":2}]"), version);
            view.read(user, ALICE, 1);
            version = expectNextVersion(expectPush(view, stream, user, "[{\"kind\":\"read\",\"authorId\":7,\"blogId\":1}]"), version);
            view.write(writer -> writer.noticePublished(audience, 60, publishedAt(3).toEpochMilli(), 0));
            JsonNode broadcast = expectPush(view, stream, user, "[{\"kind\":\"notice-published\",\"noticeId\":60,\"audience\":\"" + audience + "\"}]");
            assertThat(broadcast.get("version").asLong()).as("a broadcast writes no key of the user").isEqualTo(version);
            assertThat(broadcast.get("changes").get(0).has("version")).isFalse();
            view.write(writer -> writer.noticeRead(user, 60, publishedAt(4).toEpochMilli()));
            expectNextVersion(expectPush(view, stream, user, "[{\"kind\":\"notice-read\",\"noticeId\":60}]"), version);
        }
    }

    /** The push's one change and its counts are one version after {@code before}. */
    private static long expectNextVersion(JsonNode push, long before) {
        assertThat(push.get("changes").get(0).get("version").asLong()).as("the change's version").isEqualTo(before + 1);
        assertThat(push.get("version").asLong()).as("the counts' version").isEqualTo(before + 1);
        return before + 1;
    }

    @Test
    void shouldPushTheUnseenCountAndAnAllReadOfEveryAuthor() {
        long user = users.incrementAndGet();
        view.deliver(user, ALICE, 1, 2);
        view.deliver(user, BOB, 10);

        try (SseClient stream = view.stream(path(user), Map.of())) {
            assertThat(json(stream.nextEvent("counts").data()).get("unseen").asLong()).isEqualTo(3);

            view.seen(user, publishedAt(2));
            JsonNode seen = expectPush(view, stream, user, "[{\"kind\":\"seen\"}]");
            assertThat(seen.get("unseen").asLong()).isEqualTo(1);
            assertThat(seen.get("total").asLong()).isEqualTo(3);

            view.allRead(user, publishedAt(10));
            List<String> changes = new ArrayList<>();
            JsonNode last;
            do {
                last = json(stream.nextEvent("counts").data());
                last.get("changes").forEach(change -> changes.add(Pushes.withoutVersion(change)));
            } while (changes.size() < 3); // a push may already count a change whose own push comes next
            // The notice floor moved too: broadcasts it may have passed are counted when read.
            assertThat(changes).containsExactlyInAnyOrder("{\"kind\":\"notice-read\"}",
                    "{\"kind\":\"all-read\",\"authorId\":7}", "{\"kind\":\"all-read\",\"authorId\":9}");
            assertThat(last.get("total").asLong()).isZero();
            assertThat(last.get("unseen").asLong()).isZero();
            assertThat(view.get("/v1/users/" + user + "/unread").body()).contains("\"total\":0,\"unseen\":0");
        }
    }

    @Test
    void shouldPushNothingForAReplayedChange() {
        long user = users.incrementAndGet();
        view.deliver(user, ALICE, 1);
        try (SseClient stream = view.stream(path(user), Map.of())) {
            stream.nextEvent("counts");

            view.deliver(user, ALICE, 1);
            view.read(user, ALICE, 99);
            view.deliver(user, BOB, 2);

            expectPush(view, stream, user, "[{\"kind\":\"delivered\",\"authorId\":9,\"blogId\":2}]");
        }
    }

    @Test
    void shouldCoalesceABurstWithoutLosingAChange() {
        long user = users.incrementAndGet();
        long[] blogs = new long[300];
        for (int i = 0; i < blogs.length; i++) blogs[i] = i + 1;
        try (SseClient stream = view.stream(path(user), Map.of())) {
            stream.nextEvent("counts");

            view.deliver(user, ALICE, blogs);

            // A read sees every write made before it, also those whose notification is still on its way: the counts
            // may run ahead of the changes listed, never behind them.
            long told = 0;
            JsonNode push;
            do {
                push = json(stream.nextEvent("counts").data());
                told += push.get("changes").size() + push.path("changesOmitted").asLong();
                assertThat(push.get("changes").size()).isLessThanOrEqualTo(UnreadStream.MAX_CHANGES);
                assertThat(push.get("total").asLong()).isGreaterThanOrEqualTo(told);
            } while (told < blogs.length);
            assertThat(told).isEqualTo(blogs.length);
            assertThat(push.get("total").asLong()).isEqualTo(blogs.length);
        }
    }

    @Test
    void shouldSendHeartbeatsOnAQuietStream() {
        long user = users.incrementAndGet();
        try (SseClient stream = view.stream(path(user), Map.of())) {
            stream.nextEvent("counts");
            SseClient.Message message;
            do {
                message = stream.next(Duration.ofSeconds(5));
            } while (message.comment() == null);
            assertThat(message.comment()).isEqualTo("heartbeat");
        }
    }

    @Test
    void shouldStartAReconnectWithAFreshSnapshot() {
        long user = users.incrementAndGet();
        view.deliver(user, ALICE, 1, 2);
        try (SseClient stream = view.stream(path(user), Map.of("Last-Event-ID", "42"))) {
            SseClient.Message snapshot = stream.nextEvent("counts");
            assertThat(snapshot.id()).isEqualTo("1");
            assertThat(snapshot.data()).isEqualTo(view.get("/v1/users/" + user + "/unread").body());
        }
    }

    @Test
    void shouldRefuseABadUserIdLikeTheOtherReads() {
        try (SseClient stream = view.stream("/v1/users/0x1/unread/stream", Map.of())) {
            assertThat(stream.status).isEqualTo(400);
            assertThat(json(stream.body()).get("field").asText()).isEqualTo("userId");
        }
    }

    @Test
    void shouldDropAClientThatDoesNotRead() {
        long user = users.incrementAndGet();
        // Large pushes, about 200 KB each: one count per author.
        view.write(writer -> {
            for (long author = 1; author <= 10_000; author++) writer.deliver(user, 100_000 + author, author, publishedAt(author).toEpochMilli());
        });
        double before = metric(view, "readmark_streams_dropped_total", "reason=\"slow\"");
        AtomicLong blog = new AtomicLong(10_000);
        try (SseClient stalled = SseClient.stalled(view.api.port(), path(user))) {
            assertThat(stalled.status).isEqualTo(200);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                // One change at a time, each acknowledged, so that each makes a push of its own.
                view.write(writer -> {
                    for (int i = 0; i < 20; i++) {
                        // Each newer than the last, so that none is kept out by the floor the cap raises.
                        long next = blog.incrementAndGet();
                        writer.deliver(user, ALICE, next, publishedAt(next).toEpochMilli());
                        writer.awaitAcknowledged();
                    }
                });
                return metric(view, "readmark_streams_dropped_total", "reason=\"slow\"") > before;
            });
        }
        assertThat(metric(view, "readmark_stream_pushes_total", "")).isPositive();
    }

    @Test
    void shouldCountOpenStreams() {
        long user = users.incrementAndGet();
        double before = metric(view, "readmark_streams_open", "");
        try (SseClient stream = view.stream(path(user), Map.of())) {
            stream.nextEvent("counts");
            assertThat(metric(view, "readmark_streams_open", "")).isGreaterThan(before);
        }
        await().until(() -> metric(view, "readmark_streams_open", "") <= before);
    }
}
