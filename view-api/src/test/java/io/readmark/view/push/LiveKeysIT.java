package io.readmark.view.push;

import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.redis.RedisConnections;
import io.readmark.view.SseClient;
import io.readmark.view.ViewApiFixture;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static io.readmark.view.push.Pushes.json;
import static io.readmark.view.push.Pushes.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The users' live keys as the open streams keep them, all refreshed in one pipeline per heartbeat: present while a
 * stream of the user is open, on a standalone Redis and on every master of a cluster, gone a TTL after the last
 * closed; and a refresh that finds one gone makes its stream read again.
 */
class LiveKeysIT {

    /** Heartbeat 0.3 s: a live key lives 1.2 s past its last refresh. */
    @AutoClose
    private static final ViewApiFixture view = ViewApiFixture.onSharedRedis(Map.of(StreamSettings.HEARTBEAT, "PT0.3S"));
    @AutoClose
    private static final RedisConnections redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(),
            Duration.ofSeconds(10), false);
    private static final AtomicLong users = new AtomicLong(7_000);

    @Test
    void shouldKeepEveryOpenStreamsLiveKeyPastItsTtlAndLetItExpireOnceClosed() {
        keptWhileOpenThenExpired(view, redis, LongStream.range(0, 12).map(i -> users.incrementAndGet()).toArray());
    }

    @Test
    void shouldRefreshTheLiveKeysOfUsersOnEveryMasterOfRedisCluster() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3);
             ViewApiFixture onCluster = ViewApiFixture.on(cluster.url(), Map.of(StreamSettings.HEARTBEAT, "PT0.3S"));
             RedisConnections clusterRedis = RedisConnections.connect(cluster.url(), Duration.ofSeconds(10), false)) {
            // Users whose slots are spread over the masters: one pipeline, flushed to each.
            keptWhileOpenThenExpired(onCluster, clusterRedis, LongStream.rangeClosed(601, 612).toArray());
        }
    }

    @Test
    void shouldReadAgainWhenARefreshFindsTheLiveKeyGone() {
        long user = users.incrementAndGet();
        try (SseClient stream = view.stream(path(user), Map.of())) {
            assertThat(json(stream.nextEvent("counts").data()).get("total").asLong()).isZero();
            redis.shared().sync().del(view.config.keys().live(user));
            view.deliver(user, 7, 1); // not published: nobody seemed to listen

            // The next refresh finds the key gone and the stream reads the counts, which show the delivery.
            assertThat(json(stream.nextEvent("counts").data()).get("total").asLong()).isEqualTo(1);
            assertThat(redis.shared().sync().exists(view.config.keys().live(user))).isEqualTo(1);
        }
    }

    private static void keptWhileOpenThenExpired(ViewApiFixture view, RedisConnections redis, long[] streamed) {
        List<SseClient> streams = new ArrayList<>();
        try {
            for (long user : streamed) {
                SseClient stream = view.stream(path(user), Map.of());
                streams.add(stream);
                stream.nextEvent("counts");
            }
            // Three TTLs: only refreshes keep the keys.
            await().during(Duration.ofMillis(3_600)).atMost(Duration.ofSeconds(6))
                    .until(() -> liveKeys(view, redis, streamed) == streamed.length);
        } finally {
            streams.forEach(SseClient::close);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> liveKeys(view, redis, streamed) == 0);
    }

    /** One EXISTS per key: on a cluster the users' keys are in different slots. */
    private static long liveKeys(ViewApiFixture view, RedisConnections redis, long[] streamed) {
        return LongStream.of(streamed).map(user -> redis.shared().sync().exists(view.config.keys().live(user))).sum();
    }
}
