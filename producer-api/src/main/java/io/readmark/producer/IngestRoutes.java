package io.readmark.producer;

import io.readmark.client.EventPublisher;
import io.readmark.common.auth.Principal;
import io.readmark.common.auth.PublishRule;
import io.readmark.common.http.ApiException;
import io.readmark.common.http.Problem;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.common.logging.LogText;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code POST /v1/events}: an event is answered 202 only after Kafka acknowledged it, with where it was stored.
 * Bad input is a 4xx naming the problem, an event dated beyond the {@link EventTimeLimit} past this machine's clock
 * included (the processor would dead-letter it); an event outside the token's scopes is a 403 ({@link PublishRule});
 * Kafka trouble is a 503 with {@code Retry-After}, within the ack timeout.
 */
final class IngestRoutes {

    /** Where an accepted event was stored; a client can log it to trace the event downstream. */
    record Receipt(String eventId, String topic, int partition, long offset) {
    }

    static final String UNAVAILABLE_TITLE = "Kafka unavailable";
    static final int RETRY_AFTER_SECONDS = 1;
    static final String JSON = "application/json";

    private static final Logger log = LoggerFactory.getLogger(IngestRoutes.class);

    private final EventPublisher publisher;
    private final Duration ackTimeout;
    private final int maxBodyBytes;
    private final EventTimeLimit eventTimes;

    IngestRoutes(EventPublisher publisher, Duration ackTimeout, int maxBodyBytes, EventTimeLimit eventTimes) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.ackTimeout = Objects.requireNonNull(ackTimeout, "ackTimeout");
        this.maxBodyBytes = maxBodyBytes;
        this.eventTimes = Objects.requireNonNull(eventTimes, "eventTimes");
    }

    /** {@code caller} is null when authentication is off. */
    Response ingest(Request request, Principal caller) throws IOException {
        // The deadline starts before publish, because publish itself may block while it waits for metadata.
        AckDeadline deadline = AckDeadline.startingNow(ackTimeout);
        requireJson(request.header("Content-Type").orElse(null));
        Event event = parse(request.body(maxBodyBytes));
        String tooLarge = oversize(event);
        if (tooLarge != null) throw new ApiException(Problem.of(413, "Payload too large", tooLarge));
        Optional<PublishRule.Refusal> refused = PublishRule.check(caller, event);
        if (refused.isPresent()) throw refused.get().toException();
        RecordMetadata stored;
        try {
            stored = deadline.await(publisher.publish(event));
        } catch (AckDeadline.NotAcknowledged e) {
            log.warn("{} {} not stored: {}", event.typeName(), LogText.of(event.eventId()), e.withCause());
            throw unavailable(e.getMessage() + "; retry with the same eventId");
        }
        log.debug("accepted {} {} at {}-{}@{}", event.typeName(), LogText.of(event.eventId()), stored.topic(), stored.partition(), stored.offset());
        return Response.accepted(new Receipt(event.eventId(), stored.topic(), stored.partition(), stored.offset()));
    }

    /**
     * Accepts {@code application/json} with any parameters, and nothing else: a browser posts a body without one, or as
     * {@code text/plain}, to another site without asking it first, so taking those as JSON would let any page publish.
     */
    static void requireJson(String contentType) {
        if (!JSON.equals(mediaType(contentType))) {
            throw unsupportedMediaType(JSON, contentType);
        }
    }

    /** The media type of a Content-Type header, lower case and without parameters; null when there is none. */
    static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) return null;
        int parameters = contentType.indexOf(';');
        return (parameters < 0 ? contentType : contentType.substring(0, parameters)).strip().toLowerCase(Locale.ROOT);
    }

    static ApiException unsupportedMediaType(String expected, String contentType) {
        return new ApiException(Problem.of(415, "Unsupported media type",
                "Content-Type must be " + expected + ", was " + Problem.quote(contentType)));
    }

    private Event parse(byte[] body) {
        try {
            return decode(body, eventTimes);
        } catch (InvalidEventException e) {
            throw ApiException.badRequest(e.field(), e.getMessage());
        }
    }

    /**
     * An event as the processor would accept it. There is no record timestamp yet: the producer stamps the record with
     * this machine's clock when it is sent, a moment later, so checking against the clock now is the processor's check.
     */
    static Event decode(byte[] json, EventTimeLimit eventTimes) {
        Event event = Topics.EVENT_SERDE.decode(json);
        eventTimes.check(event, Instant.now());
        return event;
    }

    /**
     * Why the processor would dead-letter this valid event for its size, or null: the limit holds for the event as
     * written to Kafka (unknown fields dropped), whatever the body limits let in.
     */
    static String oversize(Event event) {
        int bytes = Topics.EVENT_SERDE.serialize(null, event).length;
        return bytes <= Topics.MAX_EVENT_BYTES ? null
                : "the event is " + bytes + " bytes as stored, over the " + Topics.MAX_EVENT_BYTES + " bytes an event may have";
    }

    /** The event may still be stored later; that is harmless because a retry with the same eventId is idempotent. */
    static ApiException unavailable(String detail) {
        return ApiException.unavailable(UNAVAILABLE_TITLE, detail, RETRY_AFTER_SECONDS);
    }
}
