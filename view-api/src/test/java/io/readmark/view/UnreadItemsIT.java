package io.readmark.view;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.readmark.view.ViewApiFixture.T0;
import static io.readmark.view.ViewApiFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /v1/users/{userId}/unread/items}: one newest-first list across all authors. */
class UnreadItemsIT {

    private static final long ALICE = 7;
    private static final long BOB = 9;
    private static final long CAROL = 12;
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis();

    /** blogId@authorId, the way the expectations below are written. */
    private static List<String> items(JsonNode page) {
        List<String> items = new ArrayList<>();
        page.get("items").forEach(item -> items.add(item.get("blogId").asLong() + "@" + item.get("authorId").asLong()));
        return items;
    }

    private static JsonNode page(long userId, Integer limit, String cursor) {
        String query = (limit == null ? "" : "limit=" + limit) + (cursor == null ? "" : "&cursor=" + cursor);
        HttpResponse<String> response = view.get("/v1/users/" + userId + "/unread/items?" + query);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(ViewApiFixture.contentType(response)).isEqualTo("application/json");
        return json(response);
    }

    /** Every page in turn, following nextCursor; checks each page's size on the way. */
    private static List<String> allPages(long userId, int limit) {
        List<String> all = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = page(userId, limit, cursor);
            assertThat(page.get("items").size()).isLessThanOrEqualTo(limit);
            all.addAll(items(page));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        } while (cursor != null);
        return all;
    }

    @Test
    void shouldListEveryAuthorsUnreadNewestFirstInOnePage() {
        // Given
        long user = 7001;
        view.deliver(user, ALICE, 10, 40);
        view.deliver(user, BOB, 20, 50);
        view.deliver(user, CAROL, 30);

        // When
        HttpResponse<String> response = view.get("/v1/users/" + user + "/unread/items?limit=2");

        // Then
        assertThat(response.body()).isEqualTo("{\"items\":["
                + "{\"blogId\":50,\"authorId\":9,\"publishedAt\":\"2026-01-01T00:00:50Z\"},"
                + "{\"blogId\":40,\"authorId\":7,\"publishedAt\":\"2026-01-01T00:00:40Z\"}],"
                + "\"nextCursor\":\"" + json(response).get("nextCursor").asText() + "\"}");
        assertThat(allPages(user, 2)).containsExactly("50@9", "40@7", "30@12", "20@9", "10@7");
    }

    @Test
    void shouldBreakTiesByBlogIdAsTextAndNeitherSkipNorRepeatAcrossPageBoundaries() {
        // Given many blogs published in the same second by three authors, with ids of different lengths
        // (as text, "10" comes before "9")
        long user = 7002;
        Instant same = T0.plusSeconds(100);
        view.deliver(user, ALICE, 200);
        view.deliverAt(same, user, ALICE, 8, 9, 10, 11);
        view.deliverAt(same, user, BOB, 1, 2, 100);
        view.deliverAt(same, user, CAROL, 5);
        view.deliver(user, BOB, 50);
        List<String> expected = List.of("200@7", "1@9", "10@7", "100@9", "11@7", "2@9", "5@12", "8@7", "9@7", "50@9");

        // When / Then: the same list whatever the page size, so no page boundary loses or repeats an item
        for (int limit = 1; limit <= expected.size() + 1; limit++) {
            assertThat(allPages(user, limit)).as("pages of %d", limit).isEqualTo(expected);
        }
    }

    @Test
    void shouldOrderBlogsOfOneSecondByTheirIdAsTextWhenAPageEndsAmongThem() {
        // Given blogs of one author and one second, which Redis keeps in the text order "10", "8", "9"
        long user = 7006;
        view.deliverAt(T0, user, ALICE, 8, 9, 10);

        // When / Then
        assertThat(allPages(user, 1)).containsExactly("10@7", "8@7", "9@7");
    }

    @Test
    void shouldNeitherRepeatNorSkipWhenItemsArriveAndAreReadBetweenPages() {
        // Given
        long user = 7003;
        view.deliver(user, ALICE, 10, 30, 50);
        view.deliver(user, BOB, 20, 40);
        JsonNode first = page(user, 2, null);

        // When a newer blog arrives, one shown blog and one not yet shown are read
        view.deliver(user, CAROL, 60);
        view.read(user, BOB, 40);
        view.read(user, ALICE, 30);
        JsonNode second = page(user, 2, first.get("nextCursor").asText());

        // Then
        assertThat(items(first)).containsExactly("50@7", "40@9");
        assertThat(items(second)).containsExactly("20@9", "10@7");
        assertThat(second.get("nextCursor").isNull()).isTrue();
    }

    @Test
    void shouldUseTheDefaultLimitWhenTheRequestNamesNone() {
        // Given one more unread than a default page holds, spread over two authors
        long user = 7004;
        for (long blogId = 1; blogId <= view.config.defaultLimit() + 1; blogId++) {
            view.deliver(user, blogId % 2 == 0 ? ALICE : BOB, blogId);
        }

        // When
        JsonNode first = page(user, null, null);

        // Then
        assertThat(first.get("items")).hasSize(view.config.defaultLimit());
        assertThat(first.get("nextCursor").isTextual()).isTrue();
    }

    @Test
    void shouldAnswerAnEmptyLastPageForAUserWithNothingUnread() {
        // Given a user Redis has never seen
        // When
        HttpResponse<String> response = view.get("/v1/users/424242/unread/items");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"items\":[],\"nextCursor\":null}");
    }

    @Test
    void shouldStillServeThePerAuthorListBesideIt() {
        // Given
        long user = 7005;
        view.deliver(user, ALICE, 1);
        view.deliver(user, BOB, 2);

        // When
        HttpResponse<String> response = view.get("/v1/users/" + user + "/unread/" + ALICE);

        // Then
        assertThat(items(json(response))).containsExactly("1@7");
    }
}
