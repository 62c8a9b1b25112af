package io.readmark.view;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A small Server-Sent Events client over a plain socket, as a browser's EventSource speaks it: one GET, then the
 * chunked body cut into events at blank lines. A reader thread queues what arrives; {@link #next} takes it in order.
 * A client that is told not to read lets the server's buffers fill, the way a stalled client does.
 */
public final class SseClient implements AutoCloseable {

    /** One dispatched block: an event (with its fields), a comment line, or the retry field alone. */
    public record Message(String id, String event, String data, String comment, String retry) {
    }

    /** What a non-200 answer said. */
    public record Refusal(int status, Map<String, String> headers, String body) {
    }

    private static final Message END = new Message(null, null, null, null, null);

    private final Socket socket;
    private final InputStream in;
    public final int status;
    public final Map<String, String> headers = new LinkedHashMap<>();
    private final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
    private volatile boolean ended;
    private String body = "";

    private SseClient(int port, String pathAndQuery, Map<String, String> requestHeaders, boolean reading) throws IOException {
        socket = new Socket();
        if (!reading) socket.setReceiveBufferSize(4096); // before connecting, so the window stays small
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        socket.setSoTimeout(30_000);
        StringBuilder request = new StringBuilder("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n");
        requestHeaders.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        OutputStream out = socket.getOutputStream();
        out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        in = socket.getInputStream();
        String statusLine = line();
        status = Integer.parseInt(statusLine.split(" ")[1]);
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).toLowerCase(), header.substring(colon + 1).strip());
        }
        if (status != 200) {
            body = new String(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))), StandardCharsets.UTF_8);
            return;
        }
        if (reading) Thread.ofVirtual().name("sse-client").start(this::read);
    }

    public static SseClient open(int port, String pathAndQuery, Map<String, String> headers) {
        return open(port, pathAndQuery, headers, true);
    }

    /** A client that reads the head and then nothing more. */
    public static SseClient stalled(int port, String pathAndQuery) {
        return open(port, pathAndQuery, Map.of(), false);
    }

    private static SseClient open(int port, String pathAndQuery, Map<String, String> headers, boolean reading) {
        try {
            return new SseClient(port, pathAndQuery, headers, reading);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String body() {
        return body;
    }

    /** The next message, failing after {@code wait}; null once the server ended the stream. */
    public Message next(Duration wait) {
        // A refused stream has no events: say so, rather than wait and report silence.
        if (status != 200) throw new AssertionError("the stream was refused: " + status + " " + body);
        try {
            Message message = messages.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
            if (message == null) throw new AssertionError("no message within " + wait);
            return message == END ? null : message;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The next event named {@code name}, skipping comments and the retry hint. */
    public Message nextEvent(String name) {
        return nextEvent(name, Duration.ofMinutes(1));
    }

    /** As {@link #nextEvent(String)}, failing once {@code within} has passed, however many heartbeats came. */
    public Message nextEvent(String name, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            Message message;
            try {
                if (left <= 0) throw new AssertionError("out of time");
                message = next(Duration.ofNanos(Math.min(left, Duration.ofSeconds(10).toNanos())));
            } catch (AssertionError e) {
                throw new AssertionError("no event " + name + " within " + within, e);
            }
            if (message == null) throw new AssertionError("the stream ended before an event " + name);
            if (name.equals(message.event())) return message;
        }
    }

    public boolean ended() {
        return ended;
    }

    private void read() {
        StringBuilder text = new StringBuilder();
        try {
            while (true) {
                int size = Integer.parseInt(line().strip(), 16);
                if (size == 0) break;
                text.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                line();
                int end;
                while ((end = text.indexOf("\n\n")) >= 0) {
                    messages.add(parse(text.substring(0, end)));
                    text.delete(0, end + 2);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the server closed the connection
        }
        ended = true;
        messages.add(END);
    }

    private static Message parse(String block) {
        String id = null, event = null, comment = null, retry = null;
        StringBuilder data = null;
        for (String line : block.split("\n")) {
            if (line.startsWith(":")) comment = line.substring(1).strip();
            else if (line.startsWith("id: ")) id = line.substring(4);
            else if (line.startsWith("event: ")) event = line.substring(7);
            else if (line.startsWith("retry: ")) retry = line.substring(7);
            else if (line.startsWith("data: ")) {
                if (data == null) data = new StringBuilder(); else data.append('\n');
                data.append(line.substring(6));
            }
        }
        return new Message(id, event, data == null ? null : data.toString(), comment, retry);
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) throw new IOException("connection closed");
            if (b != '\r') line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
