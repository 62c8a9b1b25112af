package io.readmark.view;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static io.readmark.view.ViewApiFixture.contentType;
import static org.assertj.core.api.Assertions.assertThat;

class UnreadCountsIT {

    private static final long ALICE = 7;
    private static final long BOB = 9;
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis();

    @AfterAll
    static void stop() {
        view.close();
    }

    @Test
    void shouldAnswerTheTotalAndTheCountPerAuthorKeyedByAuthorId() {
        // Given
        view.deliver(101, ALICE, 1001, 1002);
        view.deliver(101, BOB, 2001);

        // When
        HttpResponse<String> response = view.get("/v1/users/101/unread");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(contentType(response)).isEqualTo("application/json");
        assertThat(response.body()).isEqualTo("{\"userId\":101,\"total\":3,\"byAuthor\":{\"7\":2,\"9\":1}}");
    }

    @Test
    void shouldAnswerZeroForAUserNobodyDeliveredTo() {
        // Given a user Redis has never seen
        // When
        HttpResponse<String> response = view.get("/v1/users/424242/unread");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"userId\":424242,\"total\":0,\"byAuthor\":{}}");
    }

    @Test
    void shouldAcceptTheLargestSixtyFourBitId() {
        // Given
        long userId = Long.MAX_VALUE;
        view.deliver(userId, ALICE, 1);

        // When
        HttpResponse<String> response = view.get("/v1/users/" + userId + "/unread");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(ViewApiFixture.json(response).get("userId").asLong()).isEqualTo(userId);
        assertThat(ViewApiFixture.json(response).get("total").asLong()).isEqualTo(1);
    }
}
