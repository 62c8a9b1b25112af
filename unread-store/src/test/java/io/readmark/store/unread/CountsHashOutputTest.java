package io.readmark.store.unread;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CountsHashOutputTest {

    @Test
    void shouldReadTotalsAndEveryAuthorWhateverTheOrder() {
        UnreadCounts counts = decode(6 * 2, "12", records(5), "total", "9", "1000000000000", records(3), "seen", "4", "notices", "2", "7", records(1))
                .counts(42);

        assertThat(counts.userId()).isEqualTo(42);
        assertThat(counts.total()).isEqualTo(9);
        assertThat(counts.unseen()).isEqualTo(5);
        assertThat(counts.targetedNotices()).isEqualTo(2);
        assertThat(counts.byAuthor()).isEqualTo(Map.of(7L, 1L, 12L, 5L, 1_000_000_000_000L, 3L));
    }

    @Test
    void shouldAnswerZeroForAnEmptyHash() {
        UnreadCounts counts = decode(0).counts(42);

        assertThat(counts.total()).isZero();
        assertThat(counts.unseen()).isZero();
        assertThat(counts.byAuthor()).isEmpty();
    }

    @Test
    void shouldGrowWhenTheReplyLengthWasNotAnnounced() {
        String[] replies = new String[2 * 40];
        for (int i = 0; i < 40; i++) {
            replies[2 * i] = Integer.toString(i + 1);
            replies[2 * i + 1] = records(100 + i);
        }

        UnreadCounts counts = decode(-1, replies).counts(1);

        assertThat(counts.byAuthor()).hasSize(40).containsEntry(1L, 100L).containsEntry(40L, 139L);
    }

    @Test
    void shouldParseWhatLongParseLongParses() {
        UnreadCounts counts = decode(4, "total", "-3", "9223372036854775807", records(4)).counts(1);

        assertThat(counts.total()).isEqualTo(-3);
        assertThat(counts.byAuthor()).containsEntry(Long.MAX_VALUE, 4L);
    }

    @Test
    void shouldFailTheReadOnAFieldOrValueThatIsNoNumber() {
        CountsHashOutput.Fields badValue = decode(4, "7", records(1), "total", "x".repeat(200));
        CountsHashOutput.Fields badField = decode(4, "total", "1", "alice", records(2));
        CountsHashOutput.Fields tooLarge = decode(2, "total", "92233720368547758070");
        CountsHashOutput.Fields badRecords = decode(2, "7", "x".repeat(13));

        assertThatThrownBy(() -> badValue.counts(5)).isInstanceOf(NumberFormatException.class)
                .hasMessageContaining("user 5").hasMessageContaining("x".repeat(20) + "…").hasMessageNotContaining("x".repeat(21));
        assertThatThrownBy(() -> badField.counts(5)).isInstanceOf(NumberFormatException.class).hasMessageContaining("\"alice\"");
        assertThatThrownBy(() -> tooLarge.counts(5)).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> badRecords.counts(5)).isInstanceOf(NumberFormatException.class).hasMessageContaining("13 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "007", "-0", "+12", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
            "999999999999999999", "1000000000000000000", "", "-", "+", " 1", "1 ", "1.5", "1e3", "٣", "12x"})
    void shouldParseAValueExactlyAsLongParseLongDoes(String value) {
        CountsHashOutput.Fields fields = decodeUtf8("total", value);
        Long expected;
        try {
            expected = Long.parseLong(value);
        } catch (NumberFormatException e) {
            expected = null;
        }

        if (expected == null) {
            assertThatThrownBy(() -> fields.counts(1)).isInstanceOf(NumberFormatException.class);
        } else {
            assertThat(fields.counts(1).total()).isEqualTo(expected);
        }
    }

    @Test
    void shouldReadFromTheBufferPositionWithoutMovingIt() {
        CountsHashOutput output = new CountsHashOutput();
        ByteBuffer field = ByteBuffer.wrap("..total".getBytes(StandardCharsets.US_ASCII)).position(2);
        ByteBuffer value = ByteBuffer.wrap("..12".getBytes(StandardCharsets.US_ASCII)).position(2);

        output.set(field);
        output.set(value);

        assertThat(output.get().counts(1).total()).isEqualTo(12);
        assertThat(value.position()).isEqualTo(2);
    }

    private static CountsHashOutput.Fields decodeUtf8(String field, String value) {
        CountsHashOutput output = new CountsHashOutput();
        output.multi(2);
        output.set(ByteBuffer.wrap(field.getBytes(StandardCharsets.UTF_8)));
        output.set(ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)));
        return output.get();
    }

    /**
     * As Lettuce's decoder calls an output for an HGETALL reply: the fields' announced length (or none, -1), then each
     * field and value.
     */
    private static CountsHashOutput.Fields decode(int announced, String... replies) {
        CountsHashOutput output = new CountsHashOutput();
        if (announced >= 0) output.multi(announced);
        for (String reply : replies) output.set(ByteBuffer.wrap(reply.getBytes(StandardCharsets.ISO_8859_1)));
        return output.get();
    }

    /** An author's value of n records (their bytes do not matter to the count). */
    private static String records(int n) {
        return "r".repeat(n * EntryRecord.BYTES);
    }
}
