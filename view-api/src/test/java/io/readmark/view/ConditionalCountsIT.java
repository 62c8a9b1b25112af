package io.readmark.view;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.readmark.view.ViewApiFixture.json;
import static io.readmark.view.ViewApiFixture.publishedAt;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counts route's state version and entity tag, on a real Redis written by the real scripts: the tag holds while
 * nothing changes, changes with every change the user sees (broadcasts included, which write none of the user's
 * keys), and a request naming it is answered {@code 304} without a body.
 */
class ConditionalCountsIT {

    private static final long ALICE = 7;
    private static final long T0 = publishedAt(0).toEpochMilli();
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis(Map.of(ViewApiConfig.NOTICE_CACHE_TTL, "PT0S"));
    private static final AtomicLong users = new AtomicLong(8_000);

    @Test
    void shouldKeepTheTagWhileNothingChangesAndAnswerAMatchWith304() {
        // Given a user with unread blogs
        long user = users.incrementAndGet();
        view.deliver(user, ALICE, 1, 2);
        HttpResponse<String> first = counts(user);
        String tag = tag(first);

        // When asked again, then with the tag, in every form a client may send it
        HttpResponse<String> again = counts(user);
        HttpResponse<String> matched = view.get(path(user), "If-None-Match", tag);

        // Then the tag holds, and a match is a 304 without a body that repeats the tag and the caching rule
        assertThat(tag).matches("W/\"[1-9][0-9]*-0\"");
        assertThat(first.headers().firstValue("Cache-Control")).hasValue("private, no-cache");
        assertThat(tag(again)).isEqualTo(tag);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(matched.statusCode()).isEqualTo(304);
        assertThat(matched.body()).isEmpty();
        assertThat(matched.headers().firstValue("Content-Length")).isEmpty();
        assertThat(tag(matched)).isEqualTo(tag);
        assertThat(matched.headers().firstValue("Cache-Control")).hasValue("private, no-cache");
        for (String ifNoneMatch : List.of("*", "\"other\", " + tag, tag.substring(2), "W/\"other\",W/\"x\" ," + tag)) {
            assertThat(view.get(path(user), "If-None-Match", ifNoneMatch).statusCode()).as(ifNoneMatch).isEqualTo(304);
        }
    }

    @Test
    void shouldAnswerTheCountsInFullToAnotherOrMalformedTag() {
        long user = users.incrementAndGet();
        view.deliver(user, ALICE, 1);
        String tag = tag(counts(user));

        for (String ifNoneMatch : List.of("W/\"1-0\"", "\"\"", "W/", "not a tag", tag.replace("\"", ""), ",,,", "x".repeat(2_000))) {
            HttpResponse<String> response = view.get(path(user), "If-None-Match", ifNoneMatch);
            assertThat(response.statusCode()).as(ifNoneMatch).isEqualTo(200);
            assertThat(json(response).get("total").asLong()).isEqualTo(1);
        }
    }

    @Test
    void shouldChangeTheTagWithEveryChangeTheUserSeesAndOnlyThen() {
        // Given a user in an audience, with one unread blog
        long user = users.incrementAndGet();
        String audience = "team-" + user;
        view.deliver(user, ALICE, 1);
        view.write(writer -> writer.audienceJoined(user, audience, T0));
        List<String> tags = new ArrayList<>(List.of(tag(counts(user))));
        long version = version(counts(user));

        // When each change comes, and a replay of it
        view.deliver(user, ALICE, 2);
        version = expectVersionAfter(user, version, tags, "a delivery");
        view.deliver(user, ALICE, 2);
        assertThat(tag(counts(user))).as("a replayed delivery changes nothing").isEqualTo(tags.getLast());
        view.read(user, ALICE, 1);
        version = expectVersionAfter(user, version, tags, "a read");
        view.write(writer -> writer.noticeSent(user, 50, T0 + 5_000));
        version = expectVersionAfter(user, version, tags, "a targeted notice");

        // ... and broadcasts, which change none of the user's keys: the version holds, the tag does not
        view.write(writer -> writer.noticePublished(audience, 60, T0 + 6_000, 0));
        expectSameVersionNewTag(user, version, tags, "a broadcast to the user's audience");
        view.write(writer -> writer.noticePublished("elsewhere-" + user, 61, T0 + 6_000, 0));
        assertThat(tag(counts(user))).as("a broadcast to another audience").isEqualTo(tags.getLast());
        view.write(writer -> writer.noticeWithdrawn(audience, 60, T0 + 7_000));
        expectSameVersionNewTag(user, version, tags, "the broadcast withdrawn");
        assertThat(tags.getLast()).as("the counts before the broadcast again, and their tag").isEqualTo(tags.get(tags.size() - 3));

        // Then each change made a tag unlike any before it, and an earlier one gets the counts in full
        assertThat(tags.subList(0, tags.size() - 1)).doesNotHaveDuplicates();
        HttpResponse<String> stale = view.get(path(user), "If-None-Match", tags.getFirst());
        assertThat(stale.statusCode()).isEqualTo(200);
        assertThat(json(stale).get("total").asLong()).isEqualTo(2);
        assertThat(json(stale).get("version").asLong()).isEqualTo(version);
    }

    @Test
    void shouldAnswerVersionZeroWithAStableTagForAUserWithNoState() {
        long user = users.incrementAndGet();
        HttpResponse<String> response = counts(user);

        assertThat(json(response).get("version").asLong()).isZero();
        assertThat(tag(response)).isEqualTo("W/\"0-0\"");
        assertThat(view.get(path(user), "If-None-Match", "W/\"0-0\"").statusCode()).isEqualTo(304);
    }

    private static long expectVersionAfter(long user, long before, List<String> tags, String change) {
        HttpResponse<String> response = counts(user);
        assertThat(version(response)).as("the version after %s", change).isEqualTo(before + 1);
        assertThat(tag(response)).as("the tag after %s", change).isNotEqualTo(tags.getLast());
        tags.add(tag(response));
        return before + 1;
    }

    private static void expectSameVersionNewTag(long user, long version, List<String> tags, String change) {
        HttpResponse<String> response = counts(user);
        assertThat(version(response)).as("the version after %s", change).isEqualTo(version);
        assertThat(tag(response)).as("the tag after %s", change).isNotEqualTo(tags.getLast());
        tags.add(tag(response));
    }

    private static HttpResponse<String> counts(long user) {
        HttpResponse<String> response = view.get(path(user));
        assertThat(response.statusCode()).isEqualTo(200);
        return response;
    }

    private static String path(long user) {
        return "/v1/users/" + user + "/unread";
    }

    private static String tag(HttpResponse<String> response) {
        return response.headers().firstValue("ETag").orElseThrow(() -> new AssertionError("no ETag: " + response.headers()));
    }

    private static long version(HttpResponse<String> response) {
        return json(response).get("version").asLong();
    }
}
