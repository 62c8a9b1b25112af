package io.readmark.common.http;

import java.util.OptionalLong;

/**
 * The one spelling of a number that every input (paths, queries, token subjects) accepts: ASCII digits, no sign, no
 * leading zeros. {@link Long#parseLong} would also take {@code +5}, {@code 007} and non-ASCII digits such as
 * Arabic-Indic or full-width ones, giving one id many spellings that checks comparing strings would miss.
 */
public final class CanonicalNumbers {

    private static final int MAX_LONG_DIGITS = 19;

    private CanonicalNumbers() {
    }

    /** The value when {@code text} is a positive 64-bit integer in canonical decimal form, empty otherwise. */
    public static OptionalLong positiveId(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_LONG_DIGITS || text.charAt(0) == '0') {
            return OptionalLong.empty();
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') return OptionalLong.empty();
            int digit = c - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) return OptionalLong.empty();
            value = value * 10 + digit;
        }
        return OptionalLong.of(value);
    }
}
