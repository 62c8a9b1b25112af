package io.readmark.schemas;

/** Headers on every {@code readmark-dlq} record: why it was rejected and where it came from. */
public final class DeadLetterHeaders {

    /** The reason in one word, as the {@code reason} label of {@code readmark_dlq_records_total}: malformed, oversize, type, key, field. */
    public static final String CATEGORY = "readmark.error.category";
    /** The reason in words, naming the rule and quoting the bad value (shortened when long). */
    public static final String REASON = "readmark.error.reason";
    public static final String FIELD = "readmark.error.field";
    public static final String SOURCE_TOPIC = "readmark.source.topic";
    public static final String SOURCE_PARTITION = "readmark.source.partition";
    public static final String SOURCE_OFFSET = "readmark.source.offset";
    /**
     * Present only on a copy too large for one Kafka record: the sizes of the original's key, value and headers. Such a
     * copy keeps only the first bytes of key and value; the original stays at its source offset.
     */
    public static final String TRUNCATED = "readmark.error.truncated";

    private DeadLetterHeaders() {
    }
}
