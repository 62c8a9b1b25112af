package io.readmark.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The arithmetic behind every figure measured in interleaved repetitions. */
class SpreadTest {

    @Test
    void shouldTakeTheMiddleValueOfAnOddCountAndKeepTheRunsInTheirOrder() {
        Spread spread = Spread.of(List.of(9_000.0, 7_000.0, 8_000.0));

        assertThat(spread.median()).isEqualTo(8_000);
        assertThat(spread.min()).isEqualTo(7_000);
        assertThat(spread.max()).isEqualTo(9_000);
        assertThat(spread.runs()).containsExactly(9_000.0, 7_000.0, 8_000.0);
        assertThat(spread.toString()).isEqualTo("8,000 (7,000–9,000)");
    }

    @Test
    void shouldAverageTheMiddleTwoOfAnEvenCount() {
        assertThat(Spread.of(List.of(4.0, 1.0, 3.0, 2.0)).median()).isEqualTo(2.5);
        assertThat(Spread.of(List.of(5.0)).median()).isEqualTo(5.0);
        assertThat(Spread.of(List.of(5.0)).range()).isEqualTo("5.00–5.00");
    }

    @Test
    void shouldTakeRatiosWithinEachRepetitionNotOfTheMedians() {
        // Repetition 2 ran on a slow stretch: both sides dropped there, and its ratio is still comparable.
        List<Double> api = List.of(10_000.0, 6_000.0, 12_000.0);
        List<Double> raw = List.of(20_000.0, 10_000.0, 16_000.0);

        Spread ratio = Spread.ofRatios(api, raw);

        assertThat(ratio.runs()).containsExactly(0.5, 0.6, 0.75);
        assertThat(ratio.median()).isEqualTo(0.6);
        assertThat(ratio.min()).isEqualTo(0.5);
        assertThat(ratio.max()).isEqualTo(0.75);
        // Not the ratio of the medians, which pairs measurements taken at different times.
        assertThat(Spread.of(api).median() / Spread.of(raw).median()).isCloseTo(0.625, within(1e-9));
        assertThat(Spread.ofRatios(List.of(3.0, 1.0), List.of(4.0, 4.0)).median()).isEqualTo(0.5);
    }

    @Test
    void shouldRefuseNoRunsAndUnpairedRatios() {
        assertThatThrownBy(() -> Spread.of(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Spread.ofRatios(List.of(1.0, 2.0), List.of(1.0))).hasMessageContaining("2 and 1");
    }

    @Test
    void shouldGiveEveryPartToTheReport() {
        assertThat(Spread.of(List.of(2.0, 1.0)).toMap()).containsEntry("median", 1.5).containsEntry("min", 1.0)
                .containsEntry("max", 2.0).containsEntry("runs", List.of(2.0, 1.0));
    }
}
