package io.readmark.infra;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A real Sentinel deployment: a client finds the master through the sentinels, before and after a failover. */
class EmbeddedRedisSentinelIT {

    @Test
    void shouldFailTheMasterOverToItsReplicaAndTakeTheOldMasterBackAsReplica() {
        RedisClient client = RedisClient.create();
        try (EmbeddedRedisSentinel sentinel = EmbeddedRedisSentinel.start()) {
            EmbeddedRedis master = sentinel.master();
            EmbeddedRedis replica = sentinel.replica();
            StatefulRedisConnection<String, String> connection = client.connect(RedisURI.create(sentinel.url()));
            connection.sync().set("before", "1");
            assertThat(connection.sync().waitForReplication(1, 2_000)).as("replicas with the write").isEqualTo(1);
            assertThat(sentinel.isMaster(master)).isTrue();

            master.kill();
            await("the replica promoted").atMost(Duration.ofSeconds(30)).until(() -> sentinel.isMaster(replica));
            // The client's next connect asks the sentinels again, and lands on the new master.
            await("writes on the new master").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> "OK".equals(connection.sync().set("after", "2")));
            assertThat(connection.sync().get("before")).isEqualTo("1");
            assertThat(sentinel.master()).isSameAs(replica);

            master.restart();
            // The sentinels take a restarted master back only once it has reported its role for a while.
            await("the old master back as a replica, in sync").atMost(Duration.ofSeconds(60)).until(master::isSyncedReplica);
            connection.close();
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
