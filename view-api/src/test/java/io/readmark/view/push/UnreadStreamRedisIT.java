package io.readmark.view.push;

import io.readmark.view.SseClient;
import io.readmark.view.ViewApiFixture;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.infra.EmbeddedRedisSentinel;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.readmark.view.push.Pushes.expectPush;
import static io.readmark.view.ViewApiFixture.metric;
import static io.readmark.view.push.Pushes.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Unread streams when Redis goes away, on Redis Cluster, where each user's channel lives on its slot's master, and
 * under Sentinel, where a stream reopened after a failover subscribes on the new master.
 */
class UnreadStreamRedisIT {

    @AutoClose
    private static EmbeddedRedis redis;
    @AutoClose
    private static EmbeddedRedisCluster cluster;
    @AutoClose
    private static EmbeddedRedisSentinel sentinel;

    @Test
    void shouldCloseStreamsWhenRedisGoesAndRefuseNewOnesUntilItIsBack() {
        redis = EmbeddedRedis.start(0);
        try (ViewApiFixture view = ViewApiFixture.on(redis.url())) {
            view.deliver(501, 7, 1);
            SseClient stream = view.stream(path(501), Map.of());
            stream.nextEvent("counts");

            redis.stop();
            await().atMost(Duration.ofSeconds(10)).until(stream::ended);
            stream.close();
            assertThat(metric(view, "readmark_streams_dropped_total", "reason=\"redis\"")).isPositive();
            try (SseClient refused = view.stream(path(501), Map.of())) {
                assertThat(refused.status).isEqualTo(503);
                assertThat(refused.headers).containsKey("retry-after");
            }

            redis.restart();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                try (SseClient again = view.stream(path(501), Map.of())) {
                    assertThat(again.status).isEqualTo(200);
                }
            });
            // Not only the stream the wait above opened: the next one too (the request connections reconnect one by one).
            try (SseClient again = view.stream(path(501), Map.of())) {
                assertThat(again.status).as(again.body()).isEqualTo(200);
                again.nextEvent("counts");
                view.deliver(501, 7, 2);
                expectPush(view, again, 501, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":2}]");
            }
        }
    }

    @Test
    void shouldAcceptStreamsAgainOnceRedisIsBackThoughClientsKeptRetryingMeanwhile() {
        EmbeddedRedis own = EmbeddedRedis.start(0);
        try (own; ViewApiFixture view = ViewApiFixture.on(own.url())) {
            view.deliver(601, 7, 1);
            SseClient stream = view.stream(path(601), Map.of());
            stream.nextEvent("counts");

            own.stop();
            await().atMost(Duration.ofSeconds(10)).until(stream::ended);
            stream.close();
            // As EventSource does: retry every 100 ms while Redis is away, for several breaker periods.
            for (int attempt = 0; attempt < 40; attempt++) {
                try (SseClient refused = view.stream(path(601), Map.of())) {
                    assertThat(refused.status).isEqualTo(503);
                }
                await().pollDelay(Duration.ofMillis(100)).until(() -> true);
            }

            own.restart();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                try (SseClient again = view.stream(path(601), Map.of())) {
                    assertThat(again.status).as(again.body()).isEqualTo(200);
                }
            });
        }
    }

    @Test
    void shouldPushChangesOnRedisCluster() {
        cluster = EmbeddedRedisCluster.start(3);
        try (ViewApiFixture view = ViewApiFixture.on(cluster.url())) {
            // Users whose slots are spread over the masters.
            for (long user = 601; user <= 606; user++) {
                try (SseClient stream = view.stream(path(user), Map.of())) {
                    assertThat(stream.status).isEqualTo(200);
                    stream.nextEvent("counts");
                    view.deliver(user, 7, 1);
                    expectPush(view, stream, user, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":1}]");
                    view.read(user, 7, 1);
                    expectPush(view, stream, user, "[{\"kind\":\"read\",\"authorId\":7,\"blogId\":1}]");
                }
            }
        }
    }

    @Test
    void shouldPushChangesUnderSentinelBeforeAndAfterAFailover() {
        sentinel = EmbeddedRedisSentinel.start();
        try (ViewApiFixture view = ViewApiFixture.on(sentinel.url())) {
            SseClient stream = view.stream(path(701), Map.of());
            stream.nextEvent("counts");
            view.deliver(701, 7, 1);
            expectPush(view, stream, 701, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":1}]");

            EmbeddedRedis replica = sentinel.replica();
            sentinel.master().kill();
            await().atMost(Duration.ofSeconds(10)).until(stream::ended);
            stream.close();
            await().atMost(Duration.ofSeconds(30)).until(() -> sentinel.isMaster(replica));

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                try (SseClient again = view.stream(path(701), Map.of())) {
                    assertThat(again.status).as(again.body()).isEqualTo(200);
                }
            });
            try (SseClient again = view.stream(path(701), Map.of())) {
                assertThat(again.status).as(again.body()).isEqualTo(200);
                again.nextEvent("counts");
                view.deliver(701, 7, 2);
                expectPush(view, again, 701, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":2}]");
            }
        }
    }
}
