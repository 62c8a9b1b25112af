package io.readmark.common.http;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem detail. {@code field} names the offending input so a client can fix it without guessing.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field) {

    public static Problem badRequest(String field, String detail) {
        return new Problem("https://readmark.io/problems/invalid-input", "Invalid input", 400, detail, field);
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail, null);
    }
}
