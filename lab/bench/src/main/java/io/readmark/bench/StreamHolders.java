package io.readmark.bench;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.Iterator;
import java.util.PriorityQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The clients of the stream load phase ({@link StreamLoad}), in a JVM of their own so that their sockets and CPU are
 * not the view API's: {@code StreamHolders host port firstUser count} opens one unread stream per user on one selector
 * thread (at most {@value #CONNECTING} connections being set up at once), then holds them. On stdout it says
 * {@code opened <streams> <refused> <millis>} once every stream got its snapshot or was refused, then
 * {@code push <user> <total> <epochMicros>} for every later counts event, stamped when it was read, and
 * {@code ended <user>} when the server closes a stream. With a fifth argument {@code reconnect} it reconnects as a
 * browser's EventSource does: a closed stream or a failed connect after its {@code retry:} hint, a refusal after its
 * {@code Retry-After}; and says {@code back <user>} when a reconnected stream has its snapshot. It exits when its
 * stdin closes.
 */
public final class StreamHolders {

    static final int CONNECTING = 256;
    private static final int WAITING = 0, OPEN = 1, CLOSED = 2;
    private static final Pattern TOTAL = Pattern.compile("\"total\":(\\d+)");

    /** One stream: the user, the bytes of a line not yet complete, how far it got. */
    private static final class Stream {
        final long user;
        final boolean again;
        final StringBuilder line = new StringBuilder();
        boolean answered;
        /** The answer was not 200: its head is read for a Retry-After, then it closes. */
        boolean refusedAnswer;
        /** Waiting for the snapshot; then open; then closed (refused or ended). */
        int state;
        long retryMillis = 3_000;
        long retryAfterMillis = -1;

        Stream(long user, boolean again) {
            this.user = user;
            this.again = again;
        }
    }

    /** A reconnection due at {@code atNanos}. */
    private record Due(long atNanos, long user, long retryMillis) {
    }

    private final InetSocketAddress server;
    private final long firstUser;
    private final int count;
    private final boolean reconnect;
    private final PriorityQueue<Due> due = new PriorityQueue<>(Comparator.comparingLong(Due::atNanos));
    private final PrintStream out;
    private final Selector selector;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private int started;
    private int settled;
    private int opened;
    private int refused;

    private StreamHolders(InetSocketAddress server, long firstUser, int count, boolean reconnect, PrintStream out) throws IOException {
        this.server = server;
        this.firstUser = firstUser;
        this.count = count;
        this.reconnect = reconnect;
        this.out = out;
        this.selector = Selector.open();
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        StreamHolders holders = new StreamHolders(new InetSocketAddress(args[0], Integer.parseInt(args[1])),
                Long.parseLong(args[2]), Integer.parseInt(args[3]), args.length > 4 && args[4].equals("reconnect"), out);
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
                    connect(new Stream(firstUser + started++, false));
                } catch (IOException e) {
                    // Out of sockets or ports here: counted as refused, and said once, as what broke first.
                    if (refused++ == 0) out.printf("error %s%n", e);
                    settled++;
                }
            }
            long now = System.nanoTime();
            while (!due.isEmpty() && due.peek().atNanos() <= now) {
                Due next = due.poll();
                Stream again = new Stream(next.user(), true);
                again.retryMillis = next.retryMillis();
                try {
                    connect(again);
                } catch (IOException e) {
                    retryLater(again);
                }
            }
            long wait = due.isEmpty() ? 1_000 : Math.max(1, (due.peek().atNanos() - now) / 1_000_000);
            selector.select(Math.min(1_000, wait));
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

    private void connect(Stream stream) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.connect(server);
            channel.register(selector, SelectionKey.OP_CONNECT, stream);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    /** As an EventSource: after the refusal's Retry-After, else the last {@code retry:} hint. */
    private void retryLater(Stream stream) {
        long delay = stream.retryAfterMillis >= 0 ? stream.retryAfterMillis : stream.retryMillis;
        due.add(new Due(System.nanoTime() + delay * 1_000_000, stream.user, stream.retryMillis));
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
            stream.refusedAnswer = !line.startsWith("HTTP/1.1 200");
            if (stream.refusedAnswer && !reconnect) close(key, stream);
            return;
        }
        if (stream.refusedAnswer) {
            if (line.regionMatches(true, 0, "Retry-After:", 0, 12)) {
                stream.retryAfterMillis = Long.parseLong(line.substring(12).strip()) * 1_000;
            } else if (line.isEmpty()) {
                close(key, stream);
            }
            return;
        }
        if (line.startsWith("retry:")) {
            stream.retryMillis = Long.parseLong(line.substring(6).strip());
            return;
        }
        if (!line.startsWith("data:")) return;
        Matcher total = TOTAL.matcher(line);
        if (!total.find()) return;
        if (stream.state == WAITING) {
            stream.state = OPEN;
            if (stream.again) {
                out.printf("back %d%n", stream.user);
                return;
            }
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
        boolean wasOpen = stream.state == OPEN;
        if (stream.state == WAITING && !stream.again) {
            refused++;
            settled++;
        } else if (wasOpen) {
            out.printf("ended %d%n", stream.user);
        }
        if (reconnect && stream.state != CLOSED && (wasOpen || stream.again)) retryLater(stream);
        stream.state = CLOSED;
    }

    /** Starts a holders JVM like this one's: {@code reconnect} makes its streams reconnect as an EventSource does. */
    static Process launch(int port, long firstUser, int count, boolean reconnect) throws IOException {
        return new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-Xss256k", "-cp",
                System.getProperty("java.class.path"), StreamHolders.class.getName(), "127.0.0.1", Integer.toString(port),
                Long.toString(firstUser), Integer.toString(count), reconnect ? "reconnect" : "hold")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Microseconds since the epoch: the bench stamps a change with the clock the holders stamp its push with. */
    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
}
