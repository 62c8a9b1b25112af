package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A real three-master Redis Cluster: slots split evenly, keys served by the master their hash tag maps to. */
class EmbeddedRedisClusterIT {

    private static EmbeddedRedisCluster cluster;
    private static RedisClusterClient client;
    private static StatefulRedisClusterConnection<String, String> connection;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedRedisCluster.start(3);
        client = RedisClusterClient.create(cluster.ports().stream()
                .map(port -> RedisURI.create("127.0.0.1", port)).toList());
        connection = client.connect();
    }

    @AfterAll
    static void stopCluster() {
        if (connection != null) connection.close();
        if (client != null) client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        if (cluster != null) cluster.close();
    }

    @Test
    void servesKeysOfThreeHashTagsFromThreeDifferentMasters() {
        // Given one hash tag per master, chosen by the slot each tag hashes to
        Map<Integer, String> tagByPort = oneHashTagPerMaster(connection.getPartitions());
        assertThat(tagByPort.keySet()).containsExactlyInAnyOrderElementsOf(cluster.ports());
        RedisClusterCommands<String, String> redis = connection.sync();

        // When a key of each tag is written through the cluster client
        tagByPort.forEach((port, tag) -> redis.set(tag + ":greeting", "hello from " + port));

        // Then each reads back through the cluster, and directly from the one master that owns its slot
        tagByPort.forEach((port, tag) -> {
            assertThat(redis.get(tag + ":greeting")).isEqualTo("hello from " + port);
            var node = connection.getConnection("127.0.0.1", port).sync();
            assertThat(node.get(tag + ":greeting")).isEqualTo("hello from " + port);
            assertThat(node.keys("*")).containsExactly(tag + ":greeting");
        });
    }

    @Test
    void everyNodeReportsAnOkClusterOfThreeMastersSharingAllSlots() {
        // Given the cluster as started
        for (int port : cluster.ports()) {
            // When a node is asked for its view
            String info = connection.getConnection("127.0.0.1", port).sync().clusterInfo();

            // Then it is healthy, knows all three nodes and sees every slot assigned
            assertThat(info).contains("cluster_state:ok", "cluster_known_nodes:3", "cluster_size:3",
                    "cluster_slots_assigned:16384", "cluster_slots_ok:16384");
        }
        // And the slots are split as evenly as possible, the first port owning slot 0
        Partitions partitions = connection.getPartitions();
        assertThat(partitions.getPartitionBySlot(0).getUri().getPort()).isEqualTo(cluster.ports().getFirst());
        assertThat(partitions.getPartitions()).extracting(node -> node.getSlots().size())
                .containsExactlyInAnyOrder(5461, 5461, 5462);
        assertThat(cluster.url()).isEqualTo("redis-cluster://127.0.0.1:" + cluster.ports().get(0)
                + ",127.0.0.1:" + cluster.ports().get(1) + ",127.0.0.1:" + cluster.ports().get(2));
    }

    @Test
    void closeStopsEveryNodeAndFreesItsPort() {
        // Given a second, separate cluster
        EmbeddedRedisCluster other = EmbeddedRedisCluster.start(2);
        List<Integer> ports = other.ports();
        assertThat(ports).doesNotContainAnyElementsOf(cluster.ports());

        // When it is closed (twice: close is idempotent)
        other.close();
        other.close();

        // Then no node runs or answers any more, and the ports can be bound again
        assertThat(other.nodes()).noneMatch(EmbeddedRedis::isRunning);
        assertThat(ports).allSatisfy(port -> {
            assertThat(RedisPing.ping(port, Duration.ofMillis(200))).isFalse();
            assertThat(LocalPorts.isFree(port)).isTrue();
        });
    }

    @Test
    void refusesAClusterWithoutMasters() {
        assertThatThrownBy(() -> EmbeddedRedisCluster.start(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one master");
    }

    /** First tag {@code {t<n>}} landing on each master, keyed by that master's port. */
    private static Map<Integer, String> oneHashTagPerMaster(Partitions partitions) {
        Map<Integer, String> tagByPort = new LinkedHashMap<>();
        for (int n = 0; tagByPort.size() < partitions.size(); n++) {
            String tag = "{t" + n + "}";
            RedisClusterNode owner = partitions.getPartitionBySlot(SlotHash.getSlot(tag));
            tagByPort.putIfAbsent(owner.getUri().getPort(), tag);
        }
        return tagByPort;
    }
}
