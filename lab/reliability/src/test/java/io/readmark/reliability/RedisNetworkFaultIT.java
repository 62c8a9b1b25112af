package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.TcpProxy;
import io.readmark.infra.TestInfrastructure;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The network between Redis and its clients (a processor, a view API and its open unread streams) stalled for seconds
 * under load (nothing passes, connections stay open, what was sent arrives late) and then cut (every connection closed,
 * new ones refused). Writers wait and retry, the view API answers 503 meanwhile and never counts that do not add up;
 * afterwards nothing is lost, extra or double-counted, and every stream's last push is the final state.
 */
class RedisNetworkFaultIT {

    private static final Duration FAULT = Duration.ofSeconds(5);

    @Test
    void shouldLoseNothingWhenTheNetworkToRedisStallsAndIsCut() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             TcpProxy proxy = TcpProxy.start(redis.port());
             Harness harness = Scenario.on("redis-network", TestInfrastructure.shared().kafkaBootstrapServers(),
                     "redis://127.0.0.1:" + proxy.port(), null)) {
            harness.startProcessor("processor");
            try (PushWatch push = Scenario.watchStreams(harness, harness.pipeline().redisUrl());
                 ViewProbe view = ViewProbe.start(push.port(), Scenario.WATCHED_USERS)) {
                // Given a processor under load, and a view API serving counts and streams, all through the proxy
                WorkloadRunner workload = Scenario.startBusy(harness, null);

                // When the network stalls for seconds, then is cut for seconds, the load going on
                proxy.stall();
                Scenario.letLast(FAULT, since -> view.count(503, since) > 0);
                proxy.heal();
                Scenario.awaitMoreEvents(workload, 300);
                proxy.cut();
                Scenario.letLast(FAULT, since -> view.count(503, since) > 0);
                proxy.heal();
                Scenario.awaitMoreEvents(workload, 300);

                // Then the state and every stream's last push are exact, and every answer was a 200 that adds up or a 503
                Scenario.stopDrainAndCheck(harness, workload, push);
                assertThat(view.answers()).allSatisfy(answer -> {
                    assertThat(answer.status()).as("%s", answer).isIn(200, 503);
                    assertThat(answer.addsUp()).as("counts that add up: %s", answer).isTrue();
                });
                System.out.printf("redis network: %d counts read, %d answered 503; %d pushes on %d streams%n",
                        view.answers().size(), view.count(503, 0), push.pushes(), push.connections());
            }
        }
    }
}
