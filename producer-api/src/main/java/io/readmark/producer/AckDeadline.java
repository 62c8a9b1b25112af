package io.readmark.producer;

import org.apache.kafka.clients.producer.RecordMetadata;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one ack timeout of a request, started when the request arrives: every event of the request is sent and awaited
 * against it, so a batch never waits longer than a single event would.
 */
final class AckDeadline {

    /** Kafka did not acknowledge an event before the deadline; the message is the reason, worded for the client. */
    static final class NotAcknowledged extends Exception {
        NotAcknowledged(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }

        /** The reason with Kafka's own error, for the operator's log. */
        String withCause() {
            return getCause() == null ? getMessage() : getMessage() + ": " + getCause();
        }
    }

    private final Duration ackTimeout;
    private final long deadlineNanos;

    private AckDeadline(Duration ackTimeout) {
        this.ackTimeout = ackTimeout;
        this.deadlineNanos = System.nanoTime() + ackTimeout.toNanos();
    }

    static AckDeadline startingNow(Duration ackTimeout) {
        return new AckDeadline(ackTimeout);
    }

    boolean passed() {
        return System.nanoTime() - deadlineNanos >= 0;
    }

    /** Waits for the acknowledgement at most until the deadline. */
    RecordMetadata await(CompletableFuture<RecordMetadata> acknowledged) throws NotAcknowledged {
        try {
            return acknowledged.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new NotAcknowledged("Kafka did not acknowledge the event within " + ackTimeout.toMillis() + " ms", null);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new NotAcknowledged("Kafka did not accept the event (" + cause.getClass().getSimpleName() + ")", cause);
        } catch (InterruptedException e) {
            // Only happens when the server shuts down; the client still deserves an answer it can retry on.
            Thread.currentThread().interrupt();
            throw new NotAcknowledged("the server is shutting down", e);
        }
    }
}
