package io.readmark.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reads users' counts from a view API without pause while faults come and go, and keeps every answer: the status, and
 * for a 200 whether its counts add up (the total is the authors' counts and the notices), so that an answer during a
 * fault is either right in itself or a 503, never a count made of a part of the state.
 */
final class ViewProbe implements AutoCloseable {

    /** One counts read: when it started, its status (-1: no answer), and whether a 200's body adds up. */
    record Answer(long started, int status, boolean addsUp, String retryAfter) {
    }

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration PAUSE = Duration.ofMillis(50);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final Thread reader;
    private volatile boolean closed;

    private ViewProbe(int port, List<Long> users) {
        this.reader = Thread.ofVirtual().name("view-probe").start(() -> {
            for (int i = 0; !closed; i++) {
                long user = users.get(i % users.size());
                answers.add(read(URI.create("http://127.0.0.1:" + port + "/v1/users/" + user + "/unread")));
                Poll.pause(PAUSE);
            }
        });
    }

    /** Starts reading the counts of {@code users}, one after another, from the view API on {@code port}. */
    static ViewProbe start(int port, List<Long> users) {
        return new ViewProbe(port, users);
    }

    List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** Answers with that status to reads started after {@code sinceNanos}. */
    long count(int status, long sinceNanos) {
        return answers.stream().filter(answer -> answer.started() > sinceNanos && answer.status() == status).count();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        reader.join(REQUEST_TIMEOUT.multipliedBy(2));
        http.shutdownNow();
    }

    private Answer read(URI counts) {
        long started = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(counts).timeout(REQUEST_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            boolean addsUp = response.statusCode() != 200 || addsUp(Json.MAPPER.readTree(response.body()));
            return new Answer(started, response.statusCode(), addsUp, response.headers().firstValue("Retry-After").orElse(null));
        } catch (IOException e) {
            return new Answer(started, -1, true, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(started, -1, true, null);
        }
    }

    private static boolean addsUp(JsonNode body) {
        long authors = 0;
        for (JsonNode count : body.path("byAuthor")) authors += count.asLong();
        return body.path("authorsOmitted").asLong() > 0 || body.path("total").asLong() == authors + body.path("notices").asLong();
    }
}
