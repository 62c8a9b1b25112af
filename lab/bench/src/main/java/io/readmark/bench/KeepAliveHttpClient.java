package io.readmark.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal HTTP/1.1 GET client on one kept-alive socket. The load generator shares two cores with the server it
 * measures, so it must cost as little CPU per request as possible; the JDK's HttpClient hands every exchange between
 * threads of its own.
 * Understands exactly what the servers measured send: a status line, headers (of which ETag is kept) and a
 * Content-Length body, or none on a 304. It parses
 * from its own buffer (a BufferedInputStream takes a lock per byte read) and sends each request in one write.
 */
final class KeepAliveHttpClient implements AutoCloseable {

    /** One answer: status code, body, and the ETag header (null without one). */
    record Answer(int status, String body, String etag) {
    }

    private static final byte[] REQUEST_START = "GET ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REQUEST_HEADERS = " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ETAG = "etag:".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private byte[] request = new byte[256];
    private byte[] buffer = new byte[16 * 1024];
    /** Unparsed bytes are {@code buffer[position..limit)}. */
    private int position;
    private int limit;

    KeepAliveHttpClient(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        // Neither a connect nor a read timeout: either turns the socket non-blocking for good, and every read becomes an
        // attempt, a poll and a second read (three system calls instead of one). The servers are local, so a connect
        // fails at once; ConcurrentLoad closes clients still waiting long after the measurement.
        socket.connect(new InetSocketAddress(host, port));
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** {@code path} must be ASCII (it is sent as is). */
    Answer get(String path) throws IOException {
        return get(path, null);
    }

    /** As {@link #get(String)}, with {@code If-None-Match: ifNoneMatch} unless it is null (ASCII too). */
    Answer get(String path, String ifNoneMatch) throws IOException {
        String extra = ifNoneMatch == null ? "" : "If-None-Match: " + ifNoneMatch + "\r\n";
        int length = REQUEST_START.length + path.length() + REQUEST_HEADERS.length + extra.length() + 2;
        if (length > request.length) request = new byte[length * 2];
        int at = put(REQUEST_START, 0);
        at = put(path, at);
        at = put(REQUEST_HEADERS, at);
        at = put(extra, at);
        request[at++] = '\r';
        request[at++] = '\n';
        out.write(request, 0, at);

        int lineEnd = lineEnd();
        if (lineEnd - position < 12 || !startsWith("HTTP/1.1 ", position)) {
            throw new IOException("not an HTTP/1.1 answer: " + new String(buffer, position, lineEnd - position, StandardCharsets.ISO_8859_1));
        }
        int status = (buffer[position + 9] - '0') * 100 + (buffer[position + 10] - '0') * 10 + (buffer[position + 11] - '0');
        position = lineEnd + 2;
        int bodyLength = status == 304 ? 0 : -1; // a 304 has no body, whatever its headers say
        String etag = null;
        for (lineEnd = lineEnd(); lineEnd > position; lineEnd = lineEnd()) {
            if (status != 304 && startsWithIgnoreCase(CONTENT_LENGTH, position, lineEnd)) {
                bodyLength = digits(position + CONTENT_LENGTH.length, lineEnd);
            } else if (startsWithIgnoreCase(ETAG, position, lineEnd)) {
                etag = new String(buffer, position + ETAG.length, lineEnd - position - ETAG.length, StandardCharsets.US_ASCII).strip();
            }
            position = lineEnd + 2;
        }
        position = lineEnd + 2;
        if (bodyLength < 0) throw new IOException("answer without Content-Length (status " + status + ")");
        fill(bodyLength);
        String body = new String(buffer, position, bodyLength, StandardCharsets.UTF_8);
        position += bodyLength;
        return new Answer(status, body, etag);
    }

    private int put(byte[] bytes, int at) {
        System.arraycopy(bytes, 0, request, at, bytes.length);
        return at + bytes.length;
    }

    private int put(String ascii, int at) {
        for (int i = 0; i < ascii.length(); i++) request[at + i] = (byte) ascii.charAt(i);
        return at + ascii.length();
    }

    /** The index of the next {@code \r\n} at or after {@code position}, reading more as needed. */
    private int lineEnd() throws IOException {
        for (int scanned = position; ; ) {
            for (; scanned + 1 < limit; scanned++) {
                if (buffer[scanned] == '\r' && buffer[scanned + 1] == '\n') return scanned;
            }
            int offset = position;
            read();
            scanned -= offset - position; // read() may have moved the unparsed bytes to the start
        }
    }

    /** Ensures {@code count} unparsed bytes are in the buffer. */
    private void fill(int count) throws IOException {
        while (limit - position < count) read();
    }

    /** Reads more bytes after the unparsed ones, first moving them to the start or growing the buffer if needed. */
    private void read() throws IOException {
        if (position > 0) {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
        }
        if (limit == buffer.length) buffer = Arrays.copyOf(buffer, buffer.length * 2);
        int read = in.read(buffer, limit, buffer.length - limit);
        if (read < 0) throw new IOException("connection closed by the server");
        limit += read;
    }

    private boolean startsWith(String prefix, int at) {
        for (int i = 0; i < prefix.length(); i++) if (buffer[at + i] != prefix.charAt(i)) return false;
        return true;
    }

    private boolean startsWithIgnoreCase(byte[] lowerCasePrefix, int from, int to) {
        if (to - from < lowerCasePrefix.length) return false;
        for (int i = 0; i < lowerCasePrefix.length; i++) {
            if ((buffer[from + i] | 0x20) != lowerCasePrefix[i]) return false; // ASCII letters, '-' and ':' only
        }
        return true;
    }

    private int digits(int from, int to) throws IOException {
        int value = 0;
        boolean any = false;
        for (int i = from; i < to; i++) {
            byte b = buffer[i];
            if (b == ' ' || b == '\t') continue;
            if (b < '0' || b > '9' || value > 100_000_000) throw new IOException("bad Content-Length");
            value = value * 10 + (b - '0');
            any = true;
        }
        if (!any) throw new IOException("empty Content-Length");
        return value;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
