package io.readmark.view.push;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.function.LongUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

class HeartbeatSlicesTest {

    @Test
    void shouldSpreadUsersEvenlyOverTheSlicesWhateverTheirIdsLookLike() {
        LongUnaryOperator[] idSchemes = {
                n -> n,                              // sequential
                n -> n << 22,                        // time-ordered ids with the low bits zero
                n -> n << 40,                        // ids differing only in high bits
                n -> n * HeartbeatSlices.SLICES,     // multiples of the slice count
                n -> 1_000_000_007L * n + 12_345};  // anything else
        for (LongUnaryOperator scheme : idSchemes) {
            int[] perSlice = new int[HeartbeatSlices.SLICES];
            for (long n = 1; n <= 16_000; n++) perSlice[HeartbeatSlices.of(scheme.applyAsLong(n))]++;
            // 1,000 each if perfectly even; a tick then serves at most a few percent more than its share.
            assertThat(Arrays.stream(perSlice).boxed().toList()).allSatisfy(count -> assertThat(count).isBetween(900, 1_100));
        }
    }

    @Test
    void shouldGiveEveryIdASliceInRange() {
        for (long id : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
            assertThat(HeartbeatSlices.of(id)).isBetween(0, HeartbeatSlices.SLICES - 1);
        }
    }
}
