package io.readmark.infra;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A dependency-free RESP {@code PING} over a plain socket. Guarantees {@code true} only for a {@code +PONG}
 * reply, so a server that is still loading ({@code -LOADING}) or is not Redis at all does not count as up.
 */
final class RedisPing {

    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

    private RedisPing() {
    }

    static boolean ping(int port, Duration timeout) {
        int timeoutMillis = Math.toIntExact(timeout.toMillis());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            out.write(PING);
            out.flush();
            BufferedReader in = new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            return "+PONG".equals(in.readLine());
        } catch (IOException e) {
            return false;
        }
    }
}
