package io.readmark.producer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.client.EventPublisher;
import io.readmark.common.auth.Principal;
import io.readmark.common.auth.PublishRule;
import io.readmark.common.http.ApiException;
import io.readmark.common.http.Problem;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Json;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /v1/events:batch}: many events in one request, each with its own outcome. Every event is decoded and
 * checked against the token's scopes ({@link PublishRule}) on its own, so a bad or forbidden one never costs the others; the valid ones are sent in input order (events of one key keep their
 * order) and all awaited against one ack timeout, which also bounds the sending itself. Answers 200 with a {@link BatchResult}, plus {@code Retry-After}
 * when some event is unavailable, or 503 when Kafka stored none and at least one was unavailable.
 */
final class BatchIngestRoutes {

    /** A valid event and its position in the batch. */
    private record Pending(int index, Event event) {
    }

    private static final Logger log = LoggerFactory.getLogger(BatchIngestRoutes.class);

    private final EventPublisher publisher;
    private final Duration ackTimeout;
    private final int maxEvents;
    private final int maxBytes;
    private final EventTimeLimit eventTimes;

    BatchIngestRoutes(EventPublisher publisher, Duration ackTimeout, int maxEvents, int maxBytes, EventTimeLimit eventTimes) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.ackTimeout = Objects.requireNonNull(ackTimeout, "ackTimeout");
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
        this.eventTimes = Objects.requireNonNull(eventTimes, "eventTimes");
    }

    /** {@code caller} is null when authentication is off. */
    Response ingest(Request request, Principal caller) throws IOException {
        // One deadline for the whole request, started before any send, because send itself may block.
        AckDeadline deadline = AckDeadline.startingNow(ackTimeout);
        BatchFormat format = BatchFormat.of(request.header("Content-Type").orElse(null));
        List<byte[]> items = format.split(request.body(maxBytes), maxEvents);
        if (items.isEmpty()) throw ApiException.badRequest(null, "the batch is empty; send at least one event");

        BatchResult.Item[] results = new BatchResult.Item[items.size()];
        List<Pending> pending = new ArrayList<>(items.size());
        for (int index = 0; index < items.size(); index++) {
            Event event;
            try {
                event = IngestRoutes.decode(items.get(index), eventTimes);
            } catch (InvalidEventException e) {
                results[index] = new BatchResult.Rejected(index, eventIdOf(items.get(index)), e.field(), e.getMessage());
                continue;
            }
            String tooLarge = IngestRoutes.oversize(event);
            if (tooLarge != null) {
                results[index] = new BatchResult.Rejected(index, event.eventId(), null, tooLarge);
                continue;
            }
            Optional<PublishRule.Refusal> refused = PublishRule.check(caller, event);
            if (refused.isPresent()) {
                results[index] = BatchResult.Forbidden.of(index, event.eventId(), refused.get());
            } else {
                pending.add(new Pending(index, event));
            }
        }

        List<CompletableFuture<RecordMetadata>> sent = sendBy(deadline, pending.stream().map(Pending::event).toList());
        AckDeadline.NotAcknowledged firstFailure = null;
        for (int i = 0; i < pending.size(); i++) {
            int index = pending.get(i).index();
            String eventId = pending.get(i).event().eventId();
            try {
                RecordMetadata stored = deadline.await(sent.get(i));
                results[index] = new BatchResult.Accepted(index, eventId, stored.topic(), stored.partition(), stored.offset());
            } catch (AckDeadline.NotAcknowledged e) {
                if (firstFailure == null) firstFailure = e;
                results[index] = new BatchResult.Unavailable(index, eventId, e.getMessage() + "; retry with the same eventId");
            }
        }
        return answer(BatchResult.of(Arrays.asList(results)), firstFailure);
    }

    /**
     * Sends the events in order on a thread of their own, so that a send that blocks (a full send buffer, topic metadata
     * not yet known: up to {@code max.block.ms} each time) cannot hold the answer past the deadline. Each returned
     * future completes with its event's acknowledgement; one that has not by the deadline makes the event unavailable,
     * although it may still be stored later, which a retry with the same eventId makes harmless.
     */
    private List<CompletableFuture<RecordMetadata>> sendBy(AckDeadline deadline, List<Event> events) {
        List<CompletableFuture<RecordMetadata>> acknowledgements = EventPublisher.futures(events.size());
        Thread.ofVirtual().name("batch-send").start(() -> {
            try {
                publisher.publishAll(events, () -> !deadline.passed(), acknowledgements);
            } catch (RuntimeException e) {
                acknowledgements.forEach(acknowledged -> acknowledged.completeExceptionally(e));
            }
        });
        return acknowledgements;
    }

    private static Response answer(BatchResult result, AckDeadline.NotAcknowledged firstFailure) {
        int events = result.results().size();
        log.debug("batch of {}: {} accepted, {} rejected, {} forbidden, {} unavailable",
                events, result.accepted(), result.rejected(), result.forbidden(), result.unavailable());
        if (result.unavailable() == 0) return Response.ok(result);
        log.warn("batch of {}: {} events not stored; first: {}", events, result.unavailable(), firstFailure.withCause());
        if (result.accepted() == 0) {
            // Nothing got through: the same answer as for a single event, so clients handle an outage one way.
            throw IngestRoutes.unavailable("Kafka stored none of the events: " + firstFailure.getMessage()
                    + "; retry with the same eventIds");
        }
        return Response.ok(result).withHeader("Retry-After", Integer.toString(IngestRoutes.RETRY_AFTER_SECONDS));
    }

    /**
     * The {@code eventId} of an item that failed to decode, when it has a readable one, so the client can match it;
     * read leniently about keys given twice, since that may be why the item failed. One longer than the contract
     * allows is no client's id to match: only a short prefix of it goes back, as for any bad input.
     */
    private static String eventIdOf(byte[] json) {
        try (JsonParser parser = BatchFormat.SPLITTER.createParser(json)) {
            JsonNode item = Json.MAPPER.readTree(parser);
            JsonNode eventId = item == null ? null : item.get("eventId");
            if (eventId == null || !eventId.isTextual()) return null;
            String text = eventId.textValue();
            return text.length() <= Event.MAX_EVENT_ID_LENGTH ? text : Problem.printablePrefix(text);
        } catch (IOException e) {
            return null;
        }
    }
}
