package io.readmark.processor.deadletters;

import io.readmark.schemas.DeadLetterHeaders;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterCopyTest {

    private static final RecordMetadata SOURCE = new RecordMetadata() {
        @Override
        public String topic() {
            return "blog-events";
        }

        @Override
        public int partition() {
            return 2;
        }

        @Override
        public long offset() {
            return 41;
        }
    };

    @Test
    void shouldKeepKeyValueAndHeadersOfARecordThatFitsAndAddWhyAndWhere() {
        Record<byte[], byte[]> rejected = new Record<>(bytes("7"), bytes("not json"), 5L,
                new RecordHeaders().add("trace", bytes("abc")));

        Record<byte[], byte[]> copy = DeadLetterCopy.of(rejected, SOURCE, DeadLetterCategory.MALFORMED, null, "not valid JSON");

        assertThat(copy.key()).isEqualTo(bytes("7"));
        assertThat(copy.value()).isEqualTo(bytes("not json"));
        assertThat(copy.timestamp()).isEqualTo(5L);
        assertThat(header(copy, "trace")).isEqualTo("abc");
        assertThat(header(copy, DeadLetterHeaders.CATEGORY)).isEqualTo("malformed");
        assertThat(header(copy, DeadLetterHeaders.REASON)).isEqualTo("not valid JSON");
        assertThat(header(copy, DeadLetterHeaders.FIELD)).isNull();
        assertThat(header(copy, DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo("blog-events");
        assertThat(header(copy, DeadLetterHeaders.SOURCE_PARTITION)).isEqualTo("2");
        assertThat(header(copy, DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("41");
        assertThat(header(copy, DeadLetterHeaders.TRUNCATED)).isNull();
        assertThat(rejected.headers().lastHeader(DeadLetterHeaders.REASON)).as("the original is left alone").isNull();
    }

    @Test
    void shouldCutACopyThatWouldNotFitOneKafkaRecordAndSaySo() {
        byte[] value = new byte[DeadLetterCopy.MAX_BYTES - 100];
        Record<byte[], byte[]> rejected = new Record<>(bytes("7"), value, 5L,
                new RecordHeaders().add("trace", bytes("abc")).add("big", new byte[200]));

        Record<byte[], byte[]> copy = DeadLetterCopy.of(rejected, SOURCE, DeadLetterCategory.OVERSIZE, null, "too large");

        assertThat(copy.value()).hasSize(DeadLetterCopy.KEPT_PREFIX_BYTES);
        assertThat(copy.key()).isEqualTo(bytes("7"));
        assertThat(header(copy, "trace")).as("original headers dropped").isNull();
        assertThat(header(copy, DeadLetterHeaders.TRUNCATED))
                .isEqualTo("key 1 bytes, value 999900 bytes, 2 headers; kept the first 16384 bytes of key and value and no headers");
        assertThat(header(copy, DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("41");
    }

    @Test
    void shouldShortenAReasonThatQuotesLongInput() {
        String reason = "unknown event type '" + "T".repeat(10_000) + "'";

        Record<byte[], byte[]> copy = DeadLetterCopy.of(new Record<>(null, bytes("{}"), 0L), SOURCE, DeadLetterCategory.TYPE,
                "type", reason);

        assertThat(header(copy, DeadLetterHeaders.REASON))
                .hasSize(DeadLetterCopy.MAX_TEXT_CHARS + "… (10021 characters)".length())
                .startsWith("unknown event type 'TTT").endsWith("… (10021 characters)");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String header(Record<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
