package io.readmark.schemas;

/**
 * A Kafka topic of the pipeline; the only way code names one. Its records are keyed by a decimal id and hold JSON
 * ({@link Topics#EVENT_SERDE}, {@link Topics#CHUNK_SERDE}), except the dead-letter topic's, which are copies as read.
 */
public record Topic(String name) {
}
