package io.readmark.producer;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.Problem;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.schemas.Event;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /v1/events}: an event is answered 202 only after Kafka acknowledged it, with where it was stored.
 * Bad input is a 4xx naming the problem; Kafka trouble is a 503 with {@code Retry-After}, within the ack timeout.
 */
final class IngestRoutes {

    /** Where an accepted event was stored; a client can log it to trace the event downstream. */
    record Receipt(String eventId, String topic, int partition, long offset) {
    }

    static final String UNAVAILABLE_TITLE = "Kafka unavailable";
    static final int RETRY_AFTER_SECONDS = 1;

    private static final Logger log = LoggerFactory.getLogger(IngestRoutes.class);
    private static final String JSON = "application/json";

    private final EventPublisher publisher;
    private final Duration ackTimeout;
    private final int maxBodyBytes;

    IngestRoutes(EventPublisher publisher, Duration ackTimeout, int maxBodyBytes) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.ackTimeout = Objects.requireNonNull(ackTimeout, "ackTimeout");
        this.maxBodyBytes = maxBodyBytes;
    }

    Response ingest(Request request) throws IOException {
        // The deadline starts before publish, because publish itself may block while it waits for metadata.
        long deadline = System.nanoTime() + ackTimeout.toNanos();
        requireJson(request.header("Content-Type").orElse(null));
        Event event = parse(request.body(maxBodyBytes));
        RecordMetadata stored = awaitAcknowledgement(event, publisher.publish(event), deadline);
        log.debug("accepted {} {} at {}-{}@{}", event.typeName(), event.eventId(), stored.topic(), stored.partition(), stored.offset());
        return Response.accepted(new Receipt(event.eventId(), stored.topic(), stored.partition(), stored.offset()));
    }

    /** Accepts {@code application/json} with any parameters; a request without Content-Type is taken as JSON. */
    static void requireJson(String contentType) {
        if (contentType == null || contentType.isBlank()) return;
        int parameters = contentType.indexOf(';');
        String mediaType = (parameters < 0 ? contentType : contentType.substring(0, parameters)).strip();
        if (!mediaType.toLowerCase(Locale.ROOT).equals(JSON)) {
            throw new ApiException(Problem.of(415, "Unsupported media type",
                    "Content-Type must be " + JSON + ", was '" + contentType + "'"));
        }
    }

    private static Event parse(byte[] body) {
        Event event;
        try {
            event = Topics.EVENT_SERDE.decode(body);
        } catch (InvalidEventException e) {
            throw ApiException.badRequest(e.field(), e.getMessage());
        }
        // A bare JSON null parses to no event at all.
        if (event == null) throw ApiException.badRequest(null, "expected one JSON object, got null");
        return event;
    }

    private RecordMetadata awaitAcknowledgement(Event event, CompletableFuture<RecordMetadata> acknowledged, long deadline) {
        try {
            return acknowledged.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            log.warn("no acknowledgement from Kafka within {} for {} {}", ackTimeout, event.typeName(), event.eventId());
            throw unavailable("Kafka did not acknowledge the event within " + ackTimeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            log.warn("Kafka rejected {} {}: {}", event.typeName(), event.eventId(), cause.toString());
            throw unavailable("Kafka did not accept the event (" + cause.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            // Only happens when the server shuts down; the client still deserves an answer it can retry on.
            Thread.currentThread().interrupt();
            throw unavailable("the server is shutting down");
        }
    }

    private static ApiException unavailable(String reason) {
        // The event may still be stored later; that is harmless because a retry with the same eventId is idempotent.
        return ApiException.unavailable(UNAVAILABLE_TITLE,
                reason + "; retry with the same eventId", RETRY_AFTER_SECONDS);
    }
}
