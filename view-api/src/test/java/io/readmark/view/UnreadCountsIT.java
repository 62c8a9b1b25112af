package io.readmark.view;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;

import static io.readmark.view.ViewApiFixture.contentType;
import static io.readmark.view.ViewApiFixture.versionMasked;
import static org.assertj.core.api.Assertions.assertThat;

class UnreadCountsIT {

    private static final long ALICE = 7;
    private static final long BOB = 9;
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis();

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
        assertThat(versionMasked(response)).isEqualTo("{\"userId\":101,\"total\":3,\"unseen\":3,\"notices\":0,\"byAuthor\":{\"7\":2,\"9\":1},\"version\":V}");
    }

    @Test
    void shouldCountAsUnseenOnlyTheUnreadPublishedAfterTheInboxWasSeen() {
        // Given three unread, two of them published at or before the moment the user saw the inbox
        view.deliver(103, ALICE, 1, 2);
        view.deliver(103, BOB, 3);
        view.seen(103, ViewApiFixture.publishedAt(2));

        // When
        HttpResponse<String> response = view.get("/v1/users/103/unread?cap=1");

        // Then
        assertThat(versionMasked(response)).isEqualTo("{\"userId\":103,\"total\":3,\"unseen\":1,\"notices\":0,\"byAuthor\":{\"7\":2,\"9\":1},\"version\":V,"
                + "\"display\":{\"total\":\"1+\",\"unseen\":\"1\",\"notices\":\"0\",\"byAuthor\":{\"7\":\"1+\",\"9\":\"1\"}}}");
    }

    @Test
    void shouldAnswerZeroForAUserNobodyDeliveredTo() {
        // Given a user Redis has never seen
        // When
        HttpResponse<String> response = view.get("/v1/users/424242/unread");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"userId\":424242,\"total\":0,\"unseen\":0,\"notices\":0,\"byAuthor\":{},\"version\":0}");
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

    @Test
    void shouldAddCappedDisplayStringsNextToTheExactCountsWhenACapIsGiven() {
        // Given 120 unread: 100 by Alice, 20 by Bob
        long[] alice = new long[100];
        for (int i = 0; i < alice.length; i++) alice[i] = i + 1;
        long[] bob = new long[20];
        for (int i = 0; i < bob.length; i++) bob[i] = 1000 + i;
        view.deliver(1, ALICE, alice);
        view.deliver(1, BOB, bob);

        // When
        HttpResponse<String> response = view.get("/v1/users/1/unread?cap=99");

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(versionMasked(response)).isEqualTo("{\"userId\":1,\"total\":120,\"unseen\":120,\"notices\":0,\"byAuthor\":{\"7\":100,\"9\":20},\"version\":V,"
                + "\"display\":{\"total\":\"99+\",\"unseen\":\"99+\",\"notices\":\"0\",\"byAuthor\":{\"7\":\"99+\",\"9\":\"20\"}}}");
    }

    @Test
    void shouldShowACountEqualToTheCapWithoutPlus() {
        // Given
        view.deliver(102, ALICE, 1, 2, 3);
        view.deliver(102, BOB, 4);

        // When
        HttpResponse<String> response = view.get("/v1/users/102/unread?cap=3");

        // Then
        assertThat(versionMasked(response)).isEqualTo("{\"userId\":102,\"total\":4,\"unseen\":4,\"notices\":0,\"byAuthor\":{\"7\":3,\"9\":1},\"version\":V,"
                + "\"display\":{\"total\":\"3+\",\"unseen\":\"3+\",\"notices\":\"0\",\"byAuthor\":{\"7\":\"3\",\"9\":\"1\"}}}");
    }

    @ParameterizedTest(name = "cap={0}")
    @ValueSource(ints = {1, 1_000_000})
    void shouldAcceptTheSmallestAndLargestCap(int cap) {
        // Given a user Redis has never seen
        // When
        HttpResponse<String> response = view.get("/v1/users/424243/unread?cap=" + cap);

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(
                "{\"userId\":424243,\"total\":0,\"unseen\":0,\"notices\":0,\"byAuthor\":{},\"version\":0,\"display\":{\"total\":\"0\",\"unseen\":\"0\",\"notices\":\"0\",\"byAuthor\":{}}}");
    }
}
