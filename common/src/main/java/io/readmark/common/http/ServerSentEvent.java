package io.readmark.common.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * One Server-Sent Event (HTML Living Standard, "Server-sent events"): an optional id the client sends back as
 * {@code Last-Event-ID} when it reconnects, an optional event name, and data, which may span lines.
 */
public record ServerSentEvent(String id, String event, String data) {

    /** Compiled once: every event and every heartbeat of every open stream goes through these. */
    private static final Pattern LINE_BREAK = Pattern.compile("\r\n|\r|\n");
    private static final Pattern BREAK_CHARACTER = Pattern.compile("[\r\n]");

    public ServerSentEvent {
        if (id != null && (id.indexOf('\n') >= 0 || id.indexOf('\r') >= 0 || id.indexOf('\0') >= 0)) {
            throw new IllegalArgumentException("an event id is one line without NUL");
        }
        if (event != null && (event.indexOf('\n') >= 0 || event.indexOf('\r') >= 0)) {
            throw new IllegalArgumentException("an event name is one line");
        }
        if (data == null) throw new IllegalArgumentException("an event has data, if only empty");
    }

    /** The event as it goes on the wire, ending with the blank line that dispatches it. */
    byte[] encode() {
        StringBuilder text = new StringBuilder(data.length() + 32);
        if (id != null) text.append("id: ").append(id).append('\n');
        if (event != null) text.append("event: ").append(event).append('\n');
        for (String line : LINE_BREAK.split(data, -1)) {
            text.append("data: ").append(line).append('\n');
        }
        return text.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The {@code retry:} field alone: how long the client waits before it reconnects. */
    static byte[] retry(Duration delay) {
        return ("retry: " + delay.toMillis() + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A comment line; the same line-break rule keeps it one line. */
    static byte[] comment(String text) {
        return (": " + BREAK_CHARACTER.matcher(text).replaceAll(" ") + "\n\n").getBytes(StandardCharsets.UTF_8);
    }
}
