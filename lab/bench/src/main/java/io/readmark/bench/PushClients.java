package io.readmark.bench;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The push route under closed-loop load. Each client keeps one unread stream open for a user of its own (past
 * {@value #OFFSET}, whom nothing else touches) and, per call, changes that user's counts through the writer the
 * processor uses — one post of author {@value #AUTHOR} delivered, then that author read, in turn — and waits for the push
 * that shows the change. A call is therefore change to push: the script and its {@code PUBLISH}, the view API's read
 * of the counts, the event on the wire. The JVM's CPU per call includes the write, which the processor would pay, and
 * this client's reading of the stream.
 */
final class PushClients {

    static final long OFFSET = 2_000_000_000L;
    static final long AUTHOR = 1;
    private static final long START_MILLIS = 1_767_225_600_000L;
    private static final long PUSH_TIMEOUT_SECONDS = 30;
    private static final Pattern TOTAL = Pattern.compile("\"total\":(\\d+)");

    private PushClients() {
    }

    static ConcurrentLoad.ClientFactory clients(String host, int port, RedisConnections redis, UnreadKeys keys) {
        AtomicLong opened = new AtomicLong();
        return () -> new StreamClient(host, port, OFFSET + opened.incrementAndGet(), redis, keys);
    }

    private static final class StreamClient implements ConcurrentLoad.Client {
        /** Put by the reader when the stream ends, so a waiting call fails at once. */
        private static final long ENDED = -1;
        /**
         * The writer never blocks on Redis (a call waits for the push instead, and a write that failed never shows as
         * one); its writes are only answered, never retried, within a measurement of a few seconds.
         */
        private static final int NEVER_AWAIT = Integer.MAX_VALUE;

        private final long user;
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private final BlockingQueue<Long> pushedTotals = new LinkedBlockingQueue<>();
        private Thread reader;
        private UnreadWriter writer;
        private long clock = START_MILLIS;
        private long blogId;
        private long total;

        StreamClient(String host, int port, long user, RedisConnections redis, UnreadKeys keys) throws Exception {
            this.user = user;
            try {
                URI stream = URI.create("http://" + host + ":" + port + "/v1/users/" + user + "/unread/stream");
                HttpRequest request = HttpRequest.newBuilder(stream).header("Accept", "text/event-stream").GET().build();
                HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
                if (response.statusCode() != 200) {
                    response.body().close();
                    throw new IllegalStateException("GET " + request.uri().getPath() + ": " + response.statusCode());
                }
                reader = Thread.ofVirtual().name("push-stream-" + user).start(() -> read(response.body()));
                writer = new UnreadWriter(redis.openBinary(), keys, UnreadLimits.DEFAULTS, NEVER_AWAIT);
                total = awaitPush(null);
            } catch (Exception | Error e) {
                close();
                throw e;
            }
        }

        /** Changes the user's counts by one, up or down, and waits for the push that shows the new total. */
        @Override
        public void call(long ignored) throws Exception {
            // A second apart: a read-all's floor covers its whole second (counters.lua), so a post in that second
            // would stay out and the push never come.
            clock += 1_000;
            if (total == 0) {
                writer.deliver(user, AUTHOR, ++blogId, clock);
            } else {
                writer.readAll(user, AUTHOR, clock);
            }
            writer.flush();
            total = awaitPush(total == 0 ? 1L : 0L);
        }

        /** The next pushed total that equals {@code expected} (any, if null); a push of an earlier state is skipped. */
        private long awaitPush(Long expected) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PUSH_TIMEOUT_SECONDS);
            while (true) {
                Long pushed = pushedTotals.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (pushed == null || pushed == ENDED) {
                    throw new IllegalStateException("user " + user + ": no push of total " + expected
                            + (pushed == null ? " within " + PUSH_TIMEOUT_SECONDS + " s" : ": the stream ended"));
                }
                if (expected == null || pushed.equals(expected)) return pushed;
            }
        }

        /** Server-Sent Events: each {@code data:} line of a {@code counts} event carries the user's total. */
        private void read(Stream<String> body) {
            try (body) {
                boolean counts = false;
                for (Iterator<String> lines = body.iterator(); lines.hasNext(); ) {
                    String line = lines.next();
                    if (line.isEmpty()) {
                        counts = false;
                    } else if (line.startsWith("event:")) {
                        counts = line.substring("event:".length()).strip().equals("counts");
                    } else if (counts && line.startsWith("data:")) {
                        Matcher total = TOTAL.matcher(line);
                        if (total.find()) pushedTotals.add(Long.parseLong(total.group(1)));
                    }
                }
            } catch (RuntimeException e) {
                // The stream broke (closed by this client, or by the server): the marker below says so.
            } finally {
                pushedTotals.add(ENDED);
            }
        }

        @Override
        public void close() {
            http.shutdownNow();
            if (reader != null) reader.interrupt();
            if (writer != null) writer.close();
        }
    }
}
