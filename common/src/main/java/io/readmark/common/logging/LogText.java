package io.readmark.common.logging;

/**
 * Untrusted text (an eventId, a record key, a reason quoting either) as a log line may carry it: control and line
 * separator characters escaped, so a value cannot end the line and forge the next one, and at most
 * {@value #MAX_CHARS} characters, so a value cannot flood the log.
 */
public final class LogText {

    /** Enough for any valid eventId and for a rejection reason as its dead-letter header keeps it. */
    public static final int MAX_CHARS = 500;

    private LogText() {
    }

    /** The value escaped as {@code \n}, {@code \r}, {@code \t}, {@code \\} or {@code \}{@code uXXXX}, and cut with its length. */
    public static String of(String value) {
        if (value == null) return "null";
        int shown = Math.min(value.length(), MAX_CHARS);
        StringBuilder out = new StringBuilder(shown + 24);
        for (int i = 0; i < shown; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (isControl(c)) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        if (value.length() > MAX_CHARS) out.append("… (").append(value.length()).append(" characters)");
        return out.toString();
    }

    /** C0, DEL, C1 and the Unicode line and paragraph separators: what a terminal or log reader may act on. */
    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == '\u2028' || c == '\u2029';
    }
}
