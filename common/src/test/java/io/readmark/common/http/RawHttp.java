package io.readmark.common.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A client that writes exactly the bytes it is given, as an attacker or a broken client would. */
final class RawHttp implements AutoCloseable {

    /** One answer as read off the wire: status, the head, the body. */
    record Answer(int status, String head, String body) {
    }

    private final Socket socket;

    RawHttp(int port) throws IOException {
        this("127.0.0.1", port);
    }

    /** A connection to 127.0.0.1 from {@code client}, a loopback address (Linux routes all of 127/8 to lo). */
    RawHttp(String client, int port) throws IOException {
        socket = new Socket();
        socket.bind(new InetSocketAddress(client, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(10_000);
    }

    static Answer exchange(int port, String request) throws IOException {
        try (RawHttp http = new RawHttp(port)) {
            http.send(request);
            return http.read();
        }
    }

    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    void send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** Sends the end of input (a half-close), as a client that has nothing more to send does. */
    void endInput() throws IOException {
        socket.shutdownOutput();
    }

    /** Reads one answer with a Content-Length body (what every non-streaming answer of the server has). */
    Answer read() throws IOException {
        InputStream in = socket.getInputStream();
        String head = readHead(in);
        if (head.isEmpty()) throw new IOException("connection closed before an answer");
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) length = Integer.parseInt(line.substring(15).strip());
        }
        byte[] body = in.readNBytes(length);
        return new Answer(Integer.parseInt(head.substring(9, 12)), head, new String(body, StandardCharsets.UTF_8));
    }

    /** The head of an answer, up to its blank line; what follows stays unread. */
    String readHead() throws IOException {
        return readHead(socket.getInputStream());
    }

    /** A line of a streamed body. */
    String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            if (b != '\r') line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    /** True when the server closes the connection within {@code wait}; what it sends meanwhile is dropped. */
    boolean closedByServerWithin(Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        return closedByServer();
    }

    /** True when the server has closed the connection (end of stream or reset) within the socket timeout. */
    boolean closedByServer() throws IOException {
        try {
            InputStream in = socket.getInputStream();
            while (true) {
                if (in.read() < 0) return true;
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        for (int b = in.read(); b >= 0; b = in.read()) {
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) break;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
