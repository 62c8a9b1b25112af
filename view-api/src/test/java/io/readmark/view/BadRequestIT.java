package io.readmark.view;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.http.HttpResponse;

import static io.readmark.view.ViewApiFixture.contentType;
import static io.readmark.view.ViewApiFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/** Bad input is the client's to fix: 400 problem+json naming the parameter, never a 500 or a stack trace. */
class BadRequestIT {

    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis();

    private static void assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(contentType(response)).isEqualTo("application/problem+json");
        JsonNode problem = json(response);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("title").asText()).isNotBlank();
        assertThat(problem.get("detail").asText()).isNotBlank();
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @ParameterizedTest(name = "{0} -> 400 naming {1}")
    @CsvSource({
            "/v1/users/abc/unread, userId",
            "/v1/users/-1/unread, userId",
            "/v1/users/0/unread, userId",
            "/v1/users/99999999999999999999/unread, userId",
            "/v1/users/1.5/unread, userId",
            "/v1/users/abc/unread/7, userId",
            "/v1/users/101/unread/abc, authorId",
            "/v1/users/101/unread/0, authorId",
            "/v1/users/101/unread/-7, authorId",
            "/v1/users/101/unread/99999999999999999999, authorId",
            "/v1/users/101/unread/7?limit=0, limit",
            "/v1/users/101/unread/7?limit=1000, limit",
            "/v1/users/101/unread/7?limit=x, limit",
            "/v1/users/101/unread/7?limit=, limit",
            "/v1/users/101/unread/7?limit=-3, limit",
            "/v1/users/101/unread/7?cursor=bm90LWEtY3Vyc29y, cursor",
            "/v1/users/101/unread/7?cursor=%25%25%25, cursor",
            "/v1/users/101/unread/7?cursor=, cursor",
            "/v1/users/101/unread?cap=0, cap",
            "/v1/users/101/unread?cap=1000001, cap",
            "/v1/users/101/unread?cap=-5, cap",
            "/v1/users/101/unread?cap=9.5, cap",
            "/v1/users/101/unread?cap=many, cap",
            "/v1/users/101/unread?cap=, cap",
            "/v1/users/0/unread/items, userId",
            "/v1/users/abc/unread/items, userId",
            "/v1/users/101/unread/items?limit=0, limit",
            "/v1/users/101/unread/items?limit=101, limit",
            "/v1/users/101/unread/items?limit=ten, limit",
            "/v1/users/101/unread/items?cursor=bm90LWEtY3Vyc29y, cursor",
            "/v1/users/101/unread/items?cursor=%25%25%25, cursor",
            "/v1/users/101/unread/items?cursor=, cursor",
            "/v1/users/-1/blogs/11?authorId=7, userId",
            "/v1/users/101/blogs/0?authorId=7, blogId",
            "/v1/users/101/blogs/x?authorId=7, blogId",
            "/v1/users/101/blogs/99999999999999999999?authorId=7, blogId",
            "/v1/users/101/blogs/11, authorId",
            "/v1/users/101/blogs/11?authorId=, authorId",
            "/v1/users/101/blogs/11?authorId=0, authorId",
            "/v1/users/101/blogs/11?authorId=-7, authorId",
            "/v1/users/101/blogs/11?authorId=seven, authorId",
    })
    void shouldAnswer400NamingTheBadParameter(String pathAndQuery, String field) {
        // Given a request with one bad parameter
        // When
        HttpResponse<String> response = view.get(pathAndQuery);

        // Then
        assertProblem(response, 400);
        assertThat(json(response).get("field").asText()).isEqualTo(field);
        assertThat(json(response).get("detail").asText()).contains(field);
    }

    @Test
    void shouldRefuseACursorOfThePerAuthorListOnTheMergedList() {
        // Given a cursor the per-author list issued
        view.deliver(101, 7, 1, 2);
        String perAuthor = json(view.get("/v1/users/101/unread/7?limit=1")).get("nextCursor").asText();

        // When
        HttpResponse<String> response = view.get("/v1/users/101/unread/items?limit=1&cursor=" + perAuthor);

        // Then
        assertProblem(response, 400);
        assertThat(json(response).get("field").asText()).isEqualTo("cursor");
    }

    @Test
    void shouldAnswer404ProblemForAnUnknownPath() {
        // Given / When
        HttpResponse<String> response = view.get("/v1/users/101/unread/7/extra");

        // Then
        assertProblem(response, 404);
    }

    @Test
    void shouldAnswer405ProblemForPostOnAReadRoute() {
        // Given / When
        HttpResponse<String> response = view.send("POST", "/v1/users/101/unread");

        // Then
        assertProblem(response, 405);
    }
}
