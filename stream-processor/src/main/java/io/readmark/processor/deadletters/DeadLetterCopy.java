package io.readmark.processor.deadletters;

import io.readmark.schemas.DeadLetterHeaders;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dead-letter copy of a rejected record: its key, value and headers, plus why it was rejected and where it came
 * from. The copy always fits in one Kafka record: one that would not (a record near the broker's limit gains the
 * headers) keeps only the first bytes of key and value and none of the original headers, and says so in
 * {@link DeadLetterHeaders#TRUNCATED}; the whole original stays at its source offset.
 */
public final class DeadLetterCopy {

    /**
     * Below the 1 MiB that a producer's {@code max.request.size} and a topic's {@code max.message.bytes} allow by
     * default, with room for the record's and the batch's own framing.
     */
    static final int MAX_BYTES = 1_000_000;
    /** What a truncated copy keeps of the key and of the value: enough to see what the record was. */
    public static final int KEPT_PREFIX_BYTES = 16 * 1024;
    /** Reasons quote client input (a type name, a key); a header must not grow with it. */
    static final int MAX_TEXT_CHARS = 500;

    private DeadLetterCopy() {
    }

    static Record<byte[], byte[]> of(Record<byte[], byte[]> rejected, RecordMetadata source, DeadLetterCategory category,
                                     String field, String reason) {
        Map<String, String> added = new LinkedHashMap<>();
        added.put(DeadLetterHeaders.CATEGORY, category.label());
        added.put(DeadLetterHeaders.REASON, shortened(reason));
        if (field != null) added.put(DeadLetterHeaders.FIELD, shortened(field));
        added.put(DeadLetterHeaders.SOURCE_TOPIC, source.topic());
        added.put(DeadLetterHeaders.SOURCE_PARTITION, Integer.toString(source.partition()));
        added.put(DeadLetterHeaders.SOURCE_OFFSET, Long.toString(source.offset()));

        byte[] key = rejected.key();
        byte[] value = rejected.value();
        Headers original = rejected.headers();
        if (length(key) + length(value) + size(original) + size(added) <= MAX_BYTES) {
            // withHeaders copies the headers, so the rejected record's own are left as they were
            Record<byte[], byte[]> copy = rejected.withHeaders(original);
            added.forEach((name, text) -> put(copy.headers(), name, text));
            return copy;
        }
        added.put(DeadLetterHeaders.TRUNCATED, "key " + length(key) + " bytes, value " + length(value) + " bytes, "
                + original.toArray().length + " headers; kept the first " + KEPT_PREFIX_BYTES
                + " bytes of key and value and no headers");
        Record<byte[], byte[]> truncated = new Record<>(prefix(key), prefix(value), rejected.timestamp(), null);
        added.forEach((name, text) -> put(truncated.headers(), name, text));
        return truncated;
    }

    /** At most {@link #MAX_TEXT_CHARS} characters, saying how long the text was when it is cut. */
    static String shortened(String text) {
        if (text.length() <= MAX_TEXT_CHARS) return text;
        return text.substring(0, MAX_TEXT_CHARS) + "… (" + text.length() + " characters)";
    }

    private static byte[] prefix(byte[] bytes) {
        return bytes == null || bytes.length <= KEPT_PREFIX_BYTES ? bytes : Arrays.copyOf(bytes, KEPT_PREFIX_BYTES);
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static long size(Map<String, String> headers) {
        long size = 0;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            size += header.getKey().getBytes(StandardCharsets.UTF_8).length
                    + header.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        return size;
    }

    private static long size(Headers headers) {
        long size = 0;
        for (Header header : headers) {
            size += header.key().getBytes(StandardCharsets.UTF_8).length + length(header.value());
        }
        return size;
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
