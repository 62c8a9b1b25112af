package io.readmark.view;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static io.readmark.view.ViewApiFixture.contentType;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /v1/users/{userId}/blogs/{blogId}?authorId=}: whether one blog is unread for one user. */
class BlogReadStateIT {

    private static final long ALICE = 7;
    private static final long BOB = 9;
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis();

    private static HttpResponse<String> blog(long userId, long blogId, long authorId) {
        return view.get("/v1/users/" + userId + "/blogs/" + blogId + "?authorId=" + authorId);
    }

    @Test
    void shouldAnswerUnreadForADeliveredBlog() {
        // Given
        view.deliver(1, ALICE, 11);

        // When
        HttpResponse<String> response = blog(1, 11, ALICE);

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(contentType(response)).isEqualTo("application/json");
        assertThat(response.body()).isEqualTo("{\"userId\":1,\"blogId\":11,\"authorId\":7,\"unread\":true}");
    }

    @Test
    void shouldAnswerReadOnceTheUserReadIt() {
        // Given
        view.deliver(2, ALICE, 11, 12);

        // When
        view.read(2, ALICE, 11);

        // Then
        assertThat(blog(2, 11, ALICE).body()).isEqualTo("{\"userId\":2,\"blogId\":11,\"authorId\":7,\"unread\":false}");
        assertThat(blog(2, 12, ALICE).body()).contains("\"unread\":true");
    }

    @Test
    void shouldAnswerReadForABlogOfAnotherAuthorOrNeverDelivered() {
        // Given
        view.deliver(3, ALICE, 11);

        // When / Then
        assertThat(blog(3, 11, BOB).body()).isEqualTo("{\"userId\":3,\"blogId\":11,\"authorId\":9,\"unread\":false}");
        assertThat(blog(3, 99, ALICE).body()).contains("\"unread\":false");
    }

    @Test
    void shouldAnswerReadForAUserNobodyDeliveredTo() {
        // Given a user Redis has never seen
        // When
        HttpResponse<String> response = blog(424242, 11, ALICE);

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"userId\":424242,\"blogId\":11,\"authorId\":7,\"unread\":false}");
    }

    @Test
    void shouldAcceptTheLargestSixtyFourBitIds() {
        // Given
        view.deliverAt(ViewApiFixture.T0, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

        // When
        HttpResponse<String> response = blog(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(ViewApiFixture.json(response).get("unread").asBoolean()).isTrue();
    }
}
