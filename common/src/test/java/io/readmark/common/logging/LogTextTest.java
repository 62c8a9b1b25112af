package io.readmark.common.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

    @Test
    void shouldEscapeEveryCharacterThatCouldEndOrRewriteALine() {
        // When
        String shown = LogText.of("a\nb\rc\td\\e\u0000f\u001b[31mg\u007fh\u0085i\u2028j\u2029k");

        // Then
        assertThat(shown).isEqualTo("a\\nb\\rc\\td\\\\e\\u0000f\\u001b[31mg\\u007fh\\u0085i\\u2028j\\u2029k");
        assertThat(shown).doesNotContainPattern("[\\p{Cntrl}\u2028\u2029]");
    }

    @Test
    void shouldKeepPrintableTextAsItIs() {
        // When / Then
        assertThat(LogText.of("evt-42 café ✓")).isEqualTo("evt-42 café ✓");
        assertThat(LogText.of(null)).isEqualTo("null");
    }

    @Test
    void shouldCutALongValueAndSayHowLongItWas() {
        // When
        String shown = LogText.of("x".repeat(10_000));

        // Then
        assertThat(shown).isEqualTo("x".repeat(LogText.MAX_CHARS) + "… (10000 characters)");
    }
}
