package io.readmark.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.auth.AuthConfig;
import io.readmark.infra.LocalPorts;
import io.readmark.schemas.Json;
import io.readmark.view.ViewApiConfig;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.stream.Stream;

/**
 * Badges kept open through the soak: a view API on the soak's Redis and one unread stream per watched user, each
 * reconnecting 200 ms after it ends — a Redis outage ends streams, a view API SIGKILLed drops them — as a browser's
 * EventSource does. The view API runs in a process of its own. What matters is the end: once the pipeline drained,
 * every watched user's last pushed counts must equal the final state.
 */
public final class PushWatch implements AutoCloseable {

    /** The counts a stream pushes, as far as the model knows them. */
    public record Counts(long total, long notices, Map<Long, Long> byAuthor) {

        /**
         * What the counts route answers for {@code user} now that everything is applied: blogs and notices, unread. Asked
         * again while the pushes settle, so a notice expiring meanwhile leaves the count, as the stream's own push does.
         */
        public static Counts expected(ExpectedUnread expected, long user) {
            Map<Long, Long> byAuthor = new TreeMap<>();
            expected.unreadOf(user).forEach((author, blogs) -> byAuthor.put(author, (long) blogs.size()));
            long notices = expected.unreadNoticesOf(user) + expected.unreadBroadcastsOf(user, System.currentTimeMillis());
            return new Counts(byAuthor.values().stream().mapToLong(Long::longValue).sum() + notices, notices, byAuthor);
        }
    }

    private static final Duration RECONNECT_AFTER = Duration.ofMillis(200);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);

    private final String redisUrl;
    private final String redisPrefix;
    private final ChildJvm view;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<Long, Counts> lastPushed = new ConcurrentHashMap<>();
    private final AtomicLong pushes = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    private final List<Long> users = new ArrayList<>();
    private final List<Thread> clients = new ArrayList<>();
    private volatile boolean closed;
    private int restarts;

    private PushWatch(String redisUrl, String redisPrefix, Path workDir) {
        this.redisUrl = redisUrl;
        this.redisPrefix = redisPrefix;
        this.view = new ChildJvm("view-api", workDir.resolve("view-api.log"));
        this.port = LocalPorts.freePort();
    }

    /** Starts a view API in a process of its own (its log in {@code workDir}) and a stream for each of {@code users}. */
    public static PushWatch start(String redisUrl, String redisPrefix, List<Long> users, Path workDir) {
        PushWatch watch = new PushWatch(redisUrl, redisPrefix, workDir);
        try {
            watch.startView();
        } catch (RuntimeException e) {
            watch.view.close();
            throw e;
        }
        for (long user : users) {
            watch.users.add(user);
            watch.clients.add(Thread.ofVirtual().name("push-watch-" + user).start(() -> watch.follow(user)));
        }
        return watch;
    }

    /** SIGKILLs the view API with its streams open and starts a new one on the same port; the clients reconnect. */
    public synchronized void restartView() {
        view.kill(KILL_TIMEOUT);
        startView();
        restarts++;
    }

    /**
     * Waits until every watched user's last pushed counts equal {@code expected}; the users that never got there,
     * each with what was pushed and what was expected.
     */
    public List<String> awaitFinal(LongFunction<Counts> expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> differing = new ArrayList<>();
            for (long user : users) {
                Counts want = expected.apply(user);
                Counts got = lastPushed.get(user);
                if (!want.equals(got)) differing.add("user " + user + ": pushed " + got + ", expected " + want);
            }
            if (differing.isEmpty() || System.nanoTime() > deadline) return differing;
            Poll.pause(POLL);
        }
    }

    public int users() {
        return users.size();
    }

    /** The view API's port: it serves counts too, to whoever asks besides the streams. */
    public int port() {
        return port;
    }

    public long pushes() {
        return pushes.get();
    }

    /** Streams opened, the first of each user included. */
    public long connections() {
        return connections.get();
    }

    public synchronized int restarts() {
        return restarts;
    }

    @Override
    public void close() {
        closed = true;
        clients.forEach(Thread::interrupt);
        http.shutdownNow();
        synchronized (this) {
            view.close();
        }
    }

    /** Starts the view API on the watch's port; returns once it answers. */
    private void startView() {
        view.start(List.of("-Xmx256m", "-XX:+UseSerialGC"), ChildViewApiMain.class, List.of(), Map.of(ViewApiConfig.HOST, "127.0.0.1",
                ViewApiConfig.PORT, Integer.toString(port), ViewApiConfig.MANAGEMENT_PORT, "0",
                ViewApiConfig.REDIS_URL, redisUrl, ViewApiConfig.REDIS_PREFIX, redisPrefix, AuthConfig.MODE, "off"), "view API on port " + port);
        HttpRequest openApi = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/openapi.json")).timeout(Duration.ofSeconds(2)).build();
        Poll.until(() -> {
            if (!view.isAlive()) throw new IllegalStateException("the view API exited:\n" + view.logTail(30));
            try {
                return http.send(openApi, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }, START_TIMEOUT, Duration.ofMillis(100), () -> "the view API did not start:\n" + view.logTail(30));
    }

    /** One user's stream, opened again whenever it ends, until closed. */
    private void follow(long user) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/users/" + user + "/unread/stream"))
                .header("Accept", "text/event-stream").GET().build();
        while (!closed) {
            try {
                HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
                if (response.statusCode() == 200) {
                    connections.incrementAndGet();
                    try (Stream<String> lines = response.body()) {
                        readEvents(user, lines.iterator());
                    }
                } else {
                    response.body().close();
                }
            } catch (IOException | RuntimeException e) {
                // The stream ended (Redis outage, view-API restart); reconnect below, as EventSource does.
            } catch (InterruptedException e) {
                return;
            }
            if (closed) return;
            try {
                Thread.sleep(RECONNECT_AFTER);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Server-Sent Events: fields until a blank line; only {@code counts} events carry counts. */
    private void readEvents(long user, Iterator<String> lines) throws IOException {
        String event = null;
        StringBuilder data = new StringBuilder();
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.isEmpty()) {
                if ("counts".equals(event) && !data.isEmpty()) {
                    lastPushed.put(user, parse(Json.MAPPER.readTree(data.toString())));
                    pushes.incrementAndGet();
                }
                event = null;
                data.setLength(0);
            } else if (line.startsWith("event:")) {
                event = line.substring("event:".length()).strip();
            } else if (line.startsWith("data:")) {
                data.append(line.substring("data:".length()).strip());
            }
        }
    }

    private static Counts parse(JsonNode body) {
        Map<Long, Long> byAuthor = new TreeMap<>();
        body.path("byAuthor").properties().forEach(field -> byAuthor.put(Long.parseLong(field.getKey()), field.getValue().asLong()));
        return new Counts(body.path("total").asLong(), body.path("notices").asLong(), byAuthor);
    }
}
