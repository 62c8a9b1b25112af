package io.readmark.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The clients of the stream load phase ({@link StreamLoad}), in a JVM of their own so that their sockets and CPU are
 * not the view API's: {@code StreamHolders host port firstUser count} opens one unread stream per user on one selector
 * thread (at most {@value #CONNECTING} connections being set up at once), then holds them. On stdout it says
 * {@code opened <streams> <refused> <millis>} once every stream got its snapshot or was refused, then
 * {@code push <user> <total> <epochMicros>} for every later counts event, stamped when it was read, and
 * {@code ended <user>} when the server closes a stream. It exits when its stdin closes.
 */
public final class StreamHolders {

    static final int CONNECTING = 256;
    private static final int WAITING = 0, OPEN = 1, CLOSED = 2;
    private static final Pattern TOTAL = Pattern.compile("\"total\":(\\d+)");

    /** One stream: the user, the bytes of a line not yet complete, how far it got. */
    private static final class Stream {
        final long user;
        final StringBuilder line = new StringBuilder();
        boolean answered;
        /** Waiting for the snapshot; then open; then closed (refused or ended). */
        int state;

        Stream(long user) {
            this.user = user;
        }
    }

    private final InetSocketAddress server;
    private final long firstUser;
    private final int count;
    private final PrintStream out;
    private final Selector selector;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private int started;
    private int settled;
    private int opened;
    private int refused;

    private StreamHolders(InetSocketAddress server, long firstUser, int count, PrintStream out) throws IOException {
        this.server = server;
        this.firstUser = firstUser;
        this.count = count;
        this.out = out;
        this.selector = Selector.open();
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        StreamHolders holders = new StreamHolders(new InetSocketAddress(args[0], Integer.parseInt(args[1])),
                Long.parseLong(args[2]), Integer.parseInt(args[3]), out);
        Thread.ofPlatform().daemon().name("stream-holders-stdin").start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // Only the end of stdin matters: the bench is done, or gone.
                }
            } catch (IOException e) {
                // Same: nobody is listening any more.
            }
            System.exit(0);
        });
        holders.run();
    }

    private void run() throws IOException {
        long start = System.nanoTime();
        boolean reported = false;
        while (true) {
            while (started < count && started - settled < CONNECTING) {
                try {
                    connect(firstUser + started++);
                } catch (IOException e) {
                    // Out of sockets or ports here: counted as refused, and said once, as what broke first.
                    if (refused++ == 0) out.printf("error %s%n", e);
                    settled++;
                }
            }
            selector.select(1_000);
            Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
            while (keys.hasNext()) {
                SelectionKey key = keys.next();
                keys.remove();
                handle(key);
            }
            if (!reported && settled == count) {
                out.printf("opened %d %d %d%n", opened, refused, (System.nanoTime() - start) / 1_000_000);
                reported = true;
            }
            out.flush();
        }
    }

    private void connect(long user) throws IOException {
        SocketChannel channel = SocketChannel.open();
        channel.configureBlocking(false);
        channel.connect(server);
        channel.register(selector, SelectionKey.OP_CONNECT, new Stream(user));
    }

    private void handle(SelectionKey key) {
        SocketChannel channel = (SocketChannel) key.channel();
        Stream stream = (Stream) key.attachment();
        try {
            if (key.isConnectable()) {
                channel.finishConnect();
                String request = "GET /v1/users/" + stream.user + "/unread/stream HTTP/1.1\r\nHost: bench\r\n"
                        + "Accept: text/event-stream\r\n\r\n";
                channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
                key.interestOps(SelectionKey.OP_READ);
                return;
            }
            buffer.clear();
            int read = channel.read(buffer);
            if (read < 0) {
                close(key, stream);
                return;
            }
            long micros = epochMicros();
            buffer.flip();
            while (buffer.hasRemaining()) {
                char c = (char) buffer.get();
                if (c == '\n') {
                    line(key, stream, stream.line.toString().strip(), micros);
                    stream.line.setLength(0);
                } else {
                    stream.line.append(c);
                }
            }
        } catch (IOException e) {
            close(key, stream);
        }
    }

    /** The status line, then SSE lines; chunk sizes and other lines are skipped. */
    private void line(SelectionKey key, Stream stream, String line, long micros) {
        if (!stream.answered) {
            stream.answered = true;
            if (!line.startsWith("HTTP/1.1 200")) close(key, stream);
            return;
        }
        if (!line.startsWith("data:")) return;
        Matcher total = TOTAL.matcher(line);
        if (!total.find()) return;
        if (stream.state == WAITING) {
            stream.state = OPEN;
            opened++;
            settled++;
        } else {
            out.printf("push %d %s %d%n", stream.user, total.group(1), micros);
        }
    }

    private void close(SelectionKey key, Stream stream) {
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException e) {
            // Closing a broken socket: nothing more to do.
        }
        if (stream.state == WAITING) {
            refused++;
            settled++;
        } else if (stream.state == OPEN) {
            out.printf("ended %d%n", stream.user);
        }
        stream.state = CLOSED;
    }

    /** Microseconds since the epoch: the bench stamps a change with the clock the holders stamp its push with. */
    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
}
