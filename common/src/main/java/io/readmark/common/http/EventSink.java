package io.readmark.common.http;

import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * Where a route sends the Server-Sent Events of one open stream; safe to use from any thread. Sending never blocks:
 * a client that does not read fast enough to keep its unsent bytes under the server's bound is disconnected rather
 * than buffered for (it reconnects with {@code Last-Event-ID} and gets a fresh state), so one slow reader cannot grow
 * the heap.
 */
public interface EventSink {

    /** Sends one event; false when the stream is closed (by the client, the server or a slow read). */
    boolean send(ServerSentEvent event);

    /** How long the client should wait before it reconnects once the stream ends ({@code retry:}). */
    boolean retry(Duration delay);

    /** A comment line, which clients ignore: keeps proxies from closing a quiet stream. */
    boolean comment(String text);

    boolean isOpen();

    /** Whether the server closed the stream because the client did not read what was sent. */
    boolean wasDropped();

    /** Runs {@code action} once the stream is closed, whoever closed it; at once if it already is. */
    void onClose(Runnable action);

    /** Ends the stream and its connection. */
    void close();

    /**
     * The thread its connection's events run on (its event loop): work for the stream done there writes without a
     * hand-off, and the streams' work spreads over the loops.
     */
    Executor executor();
}
