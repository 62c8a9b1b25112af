package io.readmark.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on 127.0.0.1 in front of one local server, for network faults between clients and that server.
 * {@link #stall()} stops forwarding in both directions and keeps every connection open, as a network that drops
 * packets: bytes already sent wait, and arrive once {@link #heal()}ed. {@link #cut()} closes every connection and
 * refuses new ones until healed. The proxy keeps its port throughout, so clients find it again.
 */
public final class TcpProxy implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);
    private static final int BUFFER = 16 * 1024;

    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition flowing = lock.newCondition();
    private boolean stalled;
    private ServerSocket listener;
    private Thread acceptor;
    /** The port bound first, bound again after a cut. */
    private int port;
    private boolean closed;
    /**
     * How many cuts so far. A connection accepted before a cut may reach {@link #connect} after the cut has closed
     * every registered socket; comparing the count at accept with the count when registering, under the lock, tells
     * such a connection to close instead of flowing through a cut network.
     */
    private long cuts;
    /** Runs between accept and registering a connection; a test widens that window with it. */
    private volatile Runnable afterAccept = () -> { };

    private TcpProxy(int targetPort) {
        this.targetPort = targetPort;
    }

    /** A proxy on any free port forwarding to {@code targetPort} on 127.0.0.1. */
    public static TcpProxy start(int targetPort) {
        return start(0, targetPort);
    }

    /** A proxy on {@code port} (0: any free one) forwarding to {@code targetPort} on 127.0.0.1. */
    public static TcpProxy start(int port, int targetPort) {
        TcpProxy proxy = new TcpProxy(targetPort);
        return proxy.listen(port);
    }

    /** The port clients connect to. */
    public int port() {
        lock.lock();
        try {
            return port;
        } finally {
            lock.unlock();
        }
    }

    /** Stops forwarding both ways; connections stay open and new ones are accepted, but nothing passes. */
    public void stall() {
        lock.lock();
        try {
            stalled = true;
        } finally {
            lock.unlock();
        }
        log.info("proxy on {} to {}: stalled", port(), targetPort);
    }

    /** Closes every connection and refuses new ones (nothing listens on the port) until {@link #heal()}. */
    public void cut() {
        int proxyPort = port();
        Thread accepting;
        lock.lock();
        try {
            cuts++;
            closeQuietly(listener);
            listener = null;
            accepting = acceptor;
            acceptor = null;
        } finally {
            lock.unlock();
        }
        // A virtual thread blocked in accept() releases the socket itself when it wakes: until then the port still
        // takes connections, so a cut waits for it before it counts as refusing.
        if (accepting != null) joinUninterruptibly(accepting);
        // A connection registered after this point saw the new count and closes itself.
        sockets.forEach(TcpProxy::closeQuietly);
        log.info("proxy on {} to {}: cut", proxyPort, targetPort);
    }

    /** Forwards again, and listens again after a cut. */
    public void heal() {
        lock.lock();
        try {
            stalled = false;
            flowing.signalAll();
            if (listener == null && !closed) bind(port);
        } finally {
            lock.unlock();
        }
        log.info("proxy on {} to {}: healed", port(), targetPort);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            stalled = false;
            flowing.signalAll();
        } finally {
            lock.unlock();
        }
        cut();
    }

    private TcpProxy listen(int onPort) {
        lock.lock();
        try {
            bind(onPort);
            return this;
        } finally {
            lock.unlock();
        }
    }

    /** Binds the port (again, after a cut) and accepts on a thread of its own; called holding the lock. */
    private void bind(int onPort) {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort));
            listener = socket;
            port = socket.getLocalPort();
            long epoch = cuts;
            acceptor = Thread.ofVirtual().name("proxy-accept-" + socket.getLocalPort()).start(() -> accept(socket, epoch));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + onPort + " for a proxy to " + targetPort, e);
        }
    }

    /** For tests: runs {@code hook} on each accepted connection before the proxy registers it. */
    void afterAccept(Runnable hook) {
        afterAccept = hook;
    }

    /** Accepts on a listener bound after {@code epoch} cuts. */
    private void accept(ServerSocket socket, long epoch) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return; // cut or closed
            }
            Thread.ofVirtual().name("proxy-connect").start(() -> connect(client, epoch));
        }
    }

    private void connect(Socket client, long epoch) {
        afterAccept.run();
        Socket server = new Socket();
        lock.lock();
        try {
            if (cuts != epoch) {
                closeQuietly(client);
                return;
            }
            sockets.add(client);
            sockets.add(server);
        } finally {
            lock.unlock();
        }
        try {
            server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
        } catch (IOException e) {
            release(client, server);
            return;
        }
        Thread.ofVirtual().name("proxy-up").start(() -> pump(client, server));
        pump(server, client);
    }

    /** Copies {@code from} to {@code to} while the proxy flows, until either side closes; then closes both. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[BUFFER];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                awaitFlowing();
                out.write(buffer, 0, read);
            }
        } catch (SocketException e) {
            // Closed by the other pump, a cut or the peer.
        } catch (IOException e) {
            log.debug("proxy to {}: connection ended", targetPort, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            release(from, to);
        }
    }

    private void awaitFlowing() throws InterruptedException {
        lock.lock();
        try {
            while (stalled) flowing.await();
        } finally {
            lock.unlock();
        }
    }

    private void release(Socket a, Socket b) {
        closeQuietly(a);
        closeQuietly(b);
        sockets.remove(a);
        sockets.remove(b);
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) return;
        try {
            closeable.close();
        } catch (Exception e) {
            // Already closed or reset: nothing to release.
        }
    }
}
