package io.readmark.view.push;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.infra.LocalPorts;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.redis.RedisConnections;
import io.readmark.view.SseClient;
import io.readmark.view.ViewApiConfig;
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
 * The users' live keys as the open streams keep them, refreshed in a pipeline per tick: present while a
 * stream of the user is open, on a standalone Redis and on every master of a cluster, gone a TTL after the last
 * closed; a refresh that finds one gone makes its stream read again; and a stream outlives a failed refresh, but not
 * failures in a row that could let its key expire unnoticed.
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

    @Test
    void shouldKeepAStreamThroughAFailedRefreshAndEndItWhenFailuresLastTillTheKeyCouldExpire() {
        // Heartbeat 0.5 s, so a live key lives 2 s; a refresh fails once Redis holds it past 0.1 s.
        try (EmbeddedRedis own = EmbeddedRedis.start(LocalPorts.freePort());
             ViewApiFixture paused = ViewApiFixture.on(own.url(),
                     Map.of(StreamSettings.HEARTBEAT, "PT0.5S", ViewApiConfig.REDIS_TIMEOUT, "PT0.1S"));
             RedisConnections admin = RedisConnections.connect(own.url(), Duration.ofSeconds(10), false)) {
            long user = users.incrementAndGet();
            try (SseClient stream = paused.stream(path(user), Map.of())) {
                assertThat(json(stream.nextEvent("counts").data()).get("total").asLong()).isZero();
                // Writes held for 0.7 s: one or two refreshes fail, none of them long enough for the key to expire.
                pauseWrites(admin, 700);
                paused.deliver(user, 7, 1); // held till the pause ends
                assertThat(json(stream.nextEvent("counts", Duration.ofSeconds(10)).data()).get("total").asLong()).isEqualTo(1);
                assertThat(stream.ended()).isFalse();

                // Held for six heartbeats: the refreshes fail in a row and the stream ends, its client to reconnect.
                pauseWrites(admin, 3_000);
                await().atMost(Duration.ofSeconds(10)).until(stream::ended);
            }
        }
    }

    private static void pauseWrites(RedisConnections redis, long millis) {
        redis.shared().sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("PAUSE").add(millis).add("WRITE"));
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
