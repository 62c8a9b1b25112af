package io.readmark.view.push;

import io.readmark.view.SseClient;
import io.readmark.view.ViewApiFixture;

import io.readmark.common.http.HttpLimits;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.readmark.view.push.Pushes.json;
import static io.readmark.view.push.Pushes.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The instance-wide limits of unread streams as a restart's reconnecting clients meet them: reads keep their
 * connections while streams are at their limit, starts are paced, and each stream is told its own retry delay.
 */
class StreamLimitsIT {

    private static final int STREAMS = 4;

    /** As many connections as streams: without a place of their own, reads would find none. */
    @AutoClose
    private static final ViewApiFixture full = ViewApiFixture.onSharedRedis(Map.of(
            StreamSettings.MAX_STREAMS, Integer.toString(STREAMS),
            HttpLimits.MAX_CONNECTIONS, Integer.toString(STREAMS),
            HttpLimits.MAX_CONNECTIONS_PER_CLIENT, "0"));
    /** As many stream places as starts, so that a place a refused start kept shows as one too few afterwards. */
    private static final int PACED_STARTS = 4;
    @AutoClose
    private static final ViewApiFixture paced = ViewApiFixture.onSharedRedis(Map.of(
            StreamSettings.OPENS_PER_SECOND, "1",
            StreamSettings.MAX_STREAMS, Integer.toString(PACED_STARTS)));
    @AutoClose
    private static final ViewApiFixture retrying = ViewApiFixture.onSharedRedis(Map.of(
            StreamSettings.RETRY, "PT2S"));

    @Test
    void shouldAnswerReadsWhileStreamsFillTheInstance() {
        List<SseClient> open = new ArrayList<>();
        try {
            // Given every stream place taken, as many as the connections
            for (int user = 0; user < STREAMS; user++) open.add(full.stream(path(601 + user), Map.of()));
            open.forEach(stream -> assertThat(stream.status).isEqualTo(200));

            // When one more stream and a counts read arrive
            try (SseClient refused = full.stream(path(609), Map.of())) {
                // Then the stream is refused by its limit, and the read is answered
                assertThat(refused.status).isEqualTo(503);
                assertThat(json(refused.body()).get("detail").asText()).contains(StreamSettings.MAX_STREAMS);
            }
            HttpResponse<String> read = full.get("/v1/users/601/unread");
            assertThat(read.statusCode()).isEqualTo(200);
        } finally {
            open.forEach(SseClient::close);
        }
    }

    @Test
    void shouldRefuseStartsBeyondThePaceWithARetryAfter() throws Exception {
        // Given a pace of one start a second: one at once, one after waiting, the rest refused
        int starts = PACED_STARTS;
        List<SseClient> answered = new ArrayList<>();
        long began = System.nanoTime();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            // When that many clients start at once
            List<Future<SseClient>> started = new ArrayList<>();
            for (int i = 0; i < starts; i++) {
                long user = 701 + i;
                started.add(clients.submit(() -> paced.stream(path(user), Map.of())));
            }
            for (Future<SseClient> stream : started) answered.add(stream.get());
            double seconds = (System.nanoTime() - began) / 1e9;

            // Then at most the pace's share opened, and the others were told when to come back
            List<SseClient> opened = answered.stream().filter(stream -> stream.status == 200).toList();
            List<SseClient> refused = answered.stream().filter(stream -> stream.status == 503).toList();
            assertThat(opened.size() + refused.size()).isEqualTo(starts);
            assertThat(opened.size()).as("opened in %.1f s at one a second, one held in reserve", seconds)
                    .isLessThanOrEqualTo(2 + (int) seconds);
            assertThat(refused).isNotEmpty().allSatisfy(stream -> {
                assertThat(Integer.parseInt(stream.headers.get("retry-after"))).isBetween(1, 5);
                assertThat(json(stream.body()).get("detail").asText()).contains(StreamSettings.OPENS_PER_SECOND);
            });
        } finally {
            answered.forEach(SseClient::close);
        }
        // And a refused start kept no stream place: every place opens again, held at once, each start at the pace
        List<SseClient> held = new ArrayList<>();
        try {
            for (int i = 0; i < starts; i++) {
                long user = 711 + i;
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                    SseClient again = paced.stream(path(user), Map.of());
                    if (again.status == 200) {
                        held.add(again);
                    } else {
                        again.close();
                    }
                    assertThat(again.status).as("start %d of %d places", held.size() + 1, starts).isEqualTo(200);
                });
            }
        } finally {
            held.forEach(SseClient::close);
        }
    }

    @Test
    void shouldTellEachStreamARetryDelayDrawnFromItsWindow() {
        // Given / When ten streams open
        Set<Long> retries = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            try (SseClient stream = retrying.stream(path(801 + i), Map.of())) {
                SseClient.Message first = stream.next(Duration.ofSeconds(10));
                // Then each retry hint lies within the setting and twice it, and they differ
                assertThat(first.retry()).as("the first thing sent").isNotNull();
                retries.add(Long.parseLong(first.retry()));
            }
        }
        assertThat(retries).allSatisfy(retry -> assertThat(retry).isBetween(2_000L, 4_000L));
        assertThat(retries).as("spread, so streams lost together come back apart").hasSizeGreaterThan(1);
    }
}
