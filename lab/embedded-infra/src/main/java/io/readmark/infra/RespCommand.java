package io.readmark.infra;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One Redis command over a plain RESP socket, for the admin commands that set up a cluster (no client library
 * in main scope, and redis-cli ships in a separate Debian package). Guarantees that an error reply is thrown,
 * never returned, so a failed {@code CLUSTER ...} call cannot pass for success. Its framing ({@link #write}) also
 * writes the bench's command files for {@code redis-cli --pipe}.
 */
public final class RespCommand {

    private RespCommand() {
    }

    /** Thrown for a {@code -ERR ...} reply; the message is Redis' own text. */
    static final class ErrorReply extends IllegalStateException {
        ErrorReply(String message) {
            super(message);
        }
    }

    /**
     * Sends {@code args} to 127.0.0.1:{@code port} and returns the reply: a simple string, an integer as text,
     * or a bulk string ({@code null} for a nil bulk). Arrays are not needed here and refused.
     *
     * @throws ErrorReply           if Redis answered with an error
     * @throws UncheckedIOException if the server is unreachable or closed the connection
     */
    static String call(int port, Duration timeout, String... args) {
        int timeoutMillis = Math.toIntExact(timeout.toMillis());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            out.write(encode(args));
            out.flush();
            return readReply(new BufferedInputStream(socket.getInputStream()), describe(args));
        } catch (IOException e) {
            throw new UncheckedIOException("Redis on 127.0.0.1:" + port + " did not answer " + args[0], e);
        }
    }

    /** The command for an error message: its first words only, as CLUSTER ADDSLOTS can carry thousands of slots. */
    static String describe(String... args) {
        if (args.length <= 6) {
            return String.join(" ", args);
        }
        return String.join(" ", Arrays.asList(args).subList(0, 4)) + " ... (" + args.length + " arguments)";
    }

    /** RESP array of bulk strings: the only request form Redis must accept for any argument (e.g. an empty one). */
    static byte[] encode(String... args) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        try {
            write(request, Arrays.stream(args).map(arg -> arg.getBytes(StandardCharsets.UTF_8)).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        return request.toByteArray();
    }

    /** Writes one command as a RESP array of bulk strings; arguments are bytes, so binary ones pass unchanged. */
    public static void write(OutputStream out, List<byte[]> args) throws IOException {
        out.write(('*' + Integer.toString(args.size()) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] arg : args) {
            out.write(('$' + Integer.toString(arg.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(arg);
            out.write('\r');
            out.write('\n');
        }
    }

    static String readReply(InputStream in, String command) throws IOException {
        String line = readLine(in);
        if (line.isEmpty()) {
            throw new IOException("empty reply line to " + command);
        }
        String rest = line.substring(1);
        return switch (line.charAt(0)) {
            case '+', ':' -> rest;
            case '-' -> throw new ErrorReply(rest + " (command: " + command + ")");
            case '$' -> readBulk(in, Integer.parseInt(rest));
            default -> throw new IOException("unexpected reply to " + command + ": " + line);
        };
    }

    private static String readBulk(InputStream in, int length) throws IOException {
        if (length < 0) {
            return null;
        }
        // Bulk lengths count bytes, so read bytes, not characters; then the trailing CRLF.
        byte[] body = in.readNBytes(length + 2);
        if (body.length != length + 2) {
            throw new EOFException("bulk reply cut short");
        }
        return new String(body, 0, length, StandardCharsets.UTF_8);
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); b != -1; b = in.read()) {
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
        throw new EOFException("connection closed before a complete reply");
    }
}
