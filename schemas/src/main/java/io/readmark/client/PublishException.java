package io.readmark.client;

/**
 * Kafka did not acknowledge an event: it was not stored in time, or Kafka refused it. {@link #getCause()} holds Kafka's
 * error (a {@link org.apache.kafka.common.errors.RetriableException} such as a
 * {@link org.apache.kafka.common.errors.TimeoutException} means trying again later may succeed).
 *
 * <p>The event may still have been stored; retrying with the same {@code eventId} is safe, because the pipeline
 * applies every event idempotently.
 */
public final class PublishException extends RuntimeException {

    private final String eventId;

    PublishException(String eventId, String message, Throwable cause) {
        super(message, cause);
        this.eventId = eventId;
    }

    /** The event that was not acknowledged, so a caller can retry it. */
    public String eventId() {
        return eventId;
    }
}
