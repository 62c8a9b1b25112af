package io.readmark.view;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.readmark.view.ViewApiFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

class UnreadPagesIT {

    private static final long ALICE = 7;
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis();

    private static String pagePath(long userId, long authorId, Integer limit, String cursor) {
        StringBuilder path = new StringBuilder("/v1/users/" + userId + "/unread/" + authorId);
        List<String> query = new ArrayList<>();
        if (limit != null) query.add("limit=" + limit);
        if (cursor != null) query.add("cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
        if (!query.isEmpty()) path.append('?').append(String.join("&", query));
        return path.toString();
    }

    private static List<Long> blogIds(JsonNode page) {
        List<Long> ids = new ArrayList<>();
        page.get("items").forEach(item -> ids.add(item.get("blogId").asLong()));
        return ids;
    }

    private JsonNode page(long userId, Integer limit, String cursor) {
        HttpResponse<String> response = view.get(pagePath(userId, ALICE, limit, cursor));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response);
    }

    @Test
    void shouldPageTheSeedSequenceNewestFirstByFollowingNextCursor() {
        // Given
        long user = 5001;
        view.deliver(user, ALICE, 2, 3, 4, 6, 8, 10, 11);

        // When
        JsonNode first = page(user, 3, null);
        JsonNode second = page(user, 3, first.get("nextCursor").asText());
        JsonNode third = page(user, 3, second.get("nextCursor").asText());

        // Then
        assertThat(blogIds(first)).containsExactly(11L, 10L, 8L);
        assertThat(blogIds(second)).containsExactly(6L, 4L, 3L);
        assertThat(blogIds(third)).containsExactly(2L);
        assertThat(third.has("nextCursor")).as("nextCursor is present on the last page").isTrue();
        assertThat(third.get("nextCursor").isNull()).as("and it is JSON null").isTrue();
    }

    @Test
    void shouldWriteEachItemWithItsIdsAndAnIsoPublicationInstant() {
        // Given
        long user = 5002;
        view.deliver(user, ALICE, 43_200);

        // When
        HttpResponse<String> response = view.get(pagePath(user, ALICE, null, null));

        // Then
        assertThat(ViewApiFixture.contentType(response)).isEqualTo("application/json");
        assertThat(response.body()).isEqualTo(
                "{\"items\":[{\"blogId\":43200,\"authorId\":7,\"publishedAt\":\"2026-01-01T12:00:00Z\"}],\"nextCursor\":null}");
    }

    @Test
    void shouldUseTheDefaultLimitWhenTheRequestNamesNone() {
        // Given more unread than one default page holds
        long user = 5003;
        long[] blogIds = new long[view.config.defaultLimit() + 1];
        for (int i = 0; i < blogIds.length; i++) blogIds[i] = i + 1;
        view.deliver(user, ALICE, blogIds);

        // When
        JsonNode first = page(user, null, null);

        // Then
        assertThat(blogIds(first)).hasSize(view.config.defaultLimit()).first().isEqualTo((long) blogIds.length);
        assertThat(first.get("nextCursor").isTextual()).isTrue();
    }

    @Test
    void shouldAcceptTheMaximumLimit() {
        // Given
        long user = 5004;
        view.deliver(user, ALICE, 1, 2);

        // When
        JsonNode page = page(user, view.config.maxLimit(), null);

        // Then
        assertThat(blogIds(page)).containsExactly(2L, 1L);
        assertThat(page.get("nextCursor").isNull()).isTrue();
    }

    @Test
    void shouldAnswerAnEmptyLastPageForAnAuthorWithNothingUnread() {
        // Given a user with no unread blogs by this author
        // When
        HttpResponse<String> response = view.get(pagePath(424242, 99, 5, null));

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"items\":[],\"nextCursor\":null}");
    }
}
