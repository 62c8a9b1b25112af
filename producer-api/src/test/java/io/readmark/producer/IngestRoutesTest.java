package io.readmark.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.readmark.common.http.ApiException;

class IngestRoutesTest {

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "application/json; charset=UTF-8", "Application/JSON;charset=utf-8", " application/json "})
    void jsonWithOrWithoutParametersIsAccepted(String contentType) {
        // When / Then
        assertThatCode(() -> IngestRoutes.requireJson(contentType)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "text/plain", "text/plain; charset=utf-8", "multipart/form-data", "application/jsonx", "application/problem+json", "application/x-www-form-urlencoded"})
    void noContentTypeAndAnyOtherMediaTypeAreUnsupported(String contentType) {
        // When / Then
        assertThatThrownBy(() -> IngestRoutes.requireJson(contentType))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(415);
                    // Named, as far as problems repeat input: at most 32 characters of it.
                    assertThat(e.problem().detail()).contains(contentType == null ? "nothing"
                            : contentType.substring(0, Math.min(32, contentType.length())));
                });
    }
}
