package io.readmark.common.http;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem detail. {@code field} names the offending input so a client can fix it without guessing.
 * Nothing a client sent is echoed beyond a short printable prefix ({@link #quote}): error bodies stay small whatever
 * the input, and cannot carry a client's bytes to whoever reads them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field) {

    /** How much of a client's input a problem may repeat. */
    static final int ECHO_LIMIT = 32;

    public Problem {
        field = field == null ? null : printablePrefix(field);
    }

    public static Problem badRequest(String field, String detail) {
        return new Problem("https://readmark.io/problems/invalid-input", "Invalid input", 400, detail, field);
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail, null);
    }

    /**
     * A client's value as a problem may show it: single-quoted, at most {@value #ECHO_LIMIT} characters, anything but
     * printable ASCII as {@code ?}, and {@code …} when cut; {@code null} reads as nothing was given.
     */
    public static String quote(String value) {
        return value == null ? "nothing" : "'" + printablePrefix(value) + "'";
    }

    /** A client's value as an answer may repeat it unquoted: {@link #quote}'s rule, so {@code null} stays null. */
    public static String printablePrefix(String value) {
        if (value == null) return null;
        int length = Math.min(value.length(), ECHO_LIMIT);
        StringBuilder shown = new StringBuilder(length + 1);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            shown.append(c >= 0x20 && c < 0x7f && c != '\'' ? c : '?');
        }
        if (value.length() > ECHO_LIMIT) shown.append('…');
        return shown.toString();
    }
}
