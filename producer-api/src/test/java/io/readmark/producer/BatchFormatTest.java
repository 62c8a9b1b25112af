package io.readmark.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.readmark.common.http.ApiException;

class BatchFormatTest {

    @Test
    void theFormatFollowsTheContentTypeAndThereMustBeOne() {
        // When / Then
        assertThatThrownBy(() -> BatchFormat.of(null))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(415));
        assertThat(BatchFormat.of("application/json; charset=utf-8")).isEqualTo(BatchFormat.JSON_ARRAY);
        assertThat(BatchFormat.of("Application/X-NDJSON")).isEqualTo(BatchFormat.NDJSON);
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/jsonl", "application/x-www-form-urlencoded"})
    void anyOtherMediaTypeIsUnsupported(String contentType) {
        // When / Then
        assertThatThrownBy(() -> BatchFormat.of(contentType))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(415));
    }

    @Test
    void ndjsonSplitsOnLineEndsAndSkipsBlankLines() {
        // Given LF and CRLF line ends, blank lines and no line end after the last event
        byte[] body = "{\"a\":1}\r\n\n \t\r\n{\"b\":2}\n{\"c\":3}".getBytes(StandardCharsets.UTF_8);

        // When
        List<String> items = text(BatchFormat.NDJSON.split(body, 10));

        // Then
        assertThat(items).containsExactly("{\"a\":1}\r", "{\"b\":2}", "{\"c\":3}");
    }

    @Test
    void aJsonArrayIsSplitIntoItsElementsWhateverTheyAre() {
        // Given
        byte[] body = "[{\"a\":1}, 42, null, [1]]".getBytes(StandardCharsets.UTF_8);

        // When
        List<String> items = text(BatchFormat.JSON_ARRAY.split(body, 10));

        // Then
        assertThat(items).containsExactly("{\"a\":1}", "42", "null", "[1]");
    }

    @Test
    void aJsonArrayElementIsCutOutAsSentKeepingAKeyGivenTwice() {
        // Given
        byte[] body = "[ {\"a\":1,\"a\":2} ,\n\"s,\" ]".getBytes(StandardCharsets.UTF_8);

        // When
        List<String> items = text(BatchFormat.JSON_ARRAY.split(body, 10));

        // Then
        assertThat(items).containsExactly("{\"a\":1,\"a\":2}", "\"s,\"");
    }

    @Test
    void moreEventsThanTheLimitAreTooLargeInEitherFormat() {
        // When / Then
        assertThatThrownBy(() -> BatchFormat.JSON_ARRAY.split("[1,2,3]".getBytes(StandardCharsets.UTF_8), 2))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(413));
        assertThatThrownBy(() -> BatchFormat.NDJSON.split("1\n2\n3".getBytes(StandardCharsets.UTF_8), 2))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(413));
    }

    private static List<String> text(List<byte[]> items) {
        return items.stream().map(item -> new String(item, StandardCharsets.UTF_8)).toList();
    }
}
