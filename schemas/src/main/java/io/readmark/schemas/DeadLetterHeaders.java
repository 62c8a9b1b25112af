package io.readmark.schemas;

/** Headers on every {@code readmark-dlq} record: why it was rejected and where it came from. */
public final class DeadLetterHeaders {

    public static final String REASON = "readmark.error.reason";
    public static final String FIELD = "readmark.error.field";
    public static final String SOURCE_TOPIC = "readmark.source.topic";
    public static final String SOURCE_PARTITION = "readmark.source.partition";
    public static final String SOURCE_OFFSET = "readmark.source.offset";

    private DeadLetterHeaders() {
    }
}
