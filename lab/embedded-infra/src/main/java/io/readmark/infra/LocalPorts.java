package io.readmark.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Loopback port helpers. Guarantees that {@link #freePorts(int)} returns distinct ports that were bindable
 * on 127.0.0.1 a moment ago; callers that pass them on must still handle a lost race (retry on bind failure).
 */
public final class LocalPorts {

    private LocalPorts() {
    }

    /** One port that was free on the loopback interface when this method returned. */
    public static int freePort() {
        return freePorts(1).getFirst();
    }

    /**
     * Distinct free ports. All sockets are held open until every port has been chosen, otherwise the kernel
     * could hand out the same ephemeral port twice.
     */
    static List<Integer> freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not find a free local port", e);
        } finally {
            sockets.forEach(LocalPorts::closeQuietly);
        }
    }

    /**
     * A free port whose {@code port + offset} is free too and at most 65535 (e.g. a Redis node and its cluster bus).
     * Both were bindable a moment ago; as with {@link #freePorts(int)}, callers must still handle a lost race.
     */
    static int freePortWithFreeOffset(int offset) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = freePort();
            // Ephemeral ports run up to 60999 on Linux, so most but not all leave room for the offset.
            if (port + offset <= 65_535 && isFree(port + offset)) {
                return port;
            }
        }
        throw new IllegalStateException("Found no free port on 127.0.0.1 whose port + " + offset + " is free too");
    }

    /**
     * True if nothing listens on {@code port} on 127.0.0.1 right now. SO_REUSEADDR is set explicitly so that
     * TIME_WAIT leftovers of a just-stopped server do not count as "taken"; on Linux a live listener
     * (including a wildcard one) still makes the bind fail.
     */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Fails with a message that names the port and the component, instead of a bare BindException later. */
    static void requireFree(int port, String what) {
        if (!isFree(port)) {
            throw new IllegalStateException(what + " cannot start: port " + port
                    + " on 127.0.0.1 is already in use by another process");
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // The port is only probed; a failed close changes nothing for the caller.
        }
    }
}
