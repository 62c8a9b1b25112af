package io.readmark.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal HTTP/1.1 GET client on one kept-alive socket. The load generator shares two cores with the server it
 * measures, so it must cost as little CPU per request as possible; the JDK's HttpClient costs several times this.
 * Understands exactly what the view API sends: a status line, headers and a Content-Length body.
 */
final class KeepAliveHttpClient implements AutoCloseable {

    /** One answer: status code and body. */
    record Answer(int status, String body) {
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    KeepAliveHttpClient(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
    }

    Answer get(String path) throws IOException {
        out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String statusLine = line();
        if (!statusLine.startsWith("HTTP/1.1 ")) throw new IOException("not an HTTP/1.1 answer: " + statusLine);
        int status = Integer.parseInt(statusLine.substring(9, 12));
        int length = -1;
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(header.substring(colon + 1).trim());
            }
        }
        if (length < 0) throw new IOException("answer without Content-Length (status " + status + ")");
        byte[] body = in.readNBytes(length);
        if (body.length != length) throw new IOException("connection closed inside the body");
        return new Answer(status, new String(body, StandardCharsets.UTF_8));
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) throw new IOException("connection closed by the server");
            if (c != '\r') line.append((char) c);
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
