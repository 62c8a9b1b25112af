package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.processor.ProcessorConfig;

import java.util.Map;

/**
 * The Kafka and Redis a soak runs on, started for it and gone with it, and what its processors must be told about
 * them. The faults differ with the topology: a single server can only be taken away whole, a replicated one loses a
 * node and carries on.
 */
public sealed interface SoakTopology extends AutoCloseable {

    /** As the settings ask: {@link Replicated} or {@link SingleNode}. */
    static SoakTopology launch(SoakConfig config) {
        return config.replicated() ? Replicated.launch() : SingleNode.launch();
    }

    String bootstrapServers();

    String redisUrl();

    /** Settings every processor process gets beyond the run's own, also when a fault starts it again. */
    Map<String, String> processorSettings();

    /** One line for the report: what ran where. */
    String description();

    @Override
    void close();

    /**
     * One broker in a process of its own, restartable with its data, and one Redis persisting to an append-only file:
     * a fault can stop either and start it again with what it had.
     */
    record SingleNode(RestartableKafka kafka, EmbeddedRedis redis) implements SoakTopology {

        static SingleNode launch() {
            RestartableKafka kafka = RestartableKafka.launch();
            try {
                return new SingleNode(kafka, EmbeddedRedis.startPersistent(0));
            } catch (RuntimeException e) {
                kafka.close();
                throw e;
            }
        }

        @Override
        public String bootstrapServers() {
            return kafka.bootstrapServers();
        }

        @Override
        public String redisUrl() {
            return redis.url();
        }

        @Override
        public Map<String, String> processorSettings() {
            return Map.of();
        }

        @Override
        public String description() {
            return "one Kafka broker, one Redis";
        }

        @Override
        public void close() {
            try (kafka; redis) {
                // Both closed, Redis first.
            }
        }
    }

    /**
     * What production runs: three KRaft nodes, each topic on all three and a write acknowledged by two
     * ({@link KafkaCluster}), and a Redis Cluster of three masters with a replica each that fails over by itself.
     * The processors wait for a replica of every master before their offsets commit, or a failover would lose what
     * the replica missed.
     */
    record Replicated(KafkaCluster kafka, EmbeddedRedisCluster redis) implements SoakTopology {

        static final int KAFKA_NODES = 3;
        static final int REDIS_MASTERS = 3;
        /** Each master has one replica: every write must have reached it. */
        static final String WAIT_REPLICAS = "1";

        static Replicated launch() {
            KafkaCluster kafka = KafkaCluster.launch(KAFKA_NODES);
            try {
                return new Replicated(kafka, EmbeddedRedisCluster.startWithReplicas(REDIS_MASTERS));
            } catch (RuntimeException e) {
                kafka.close();
                throw e;
            }
        }

        @Override
        public String bootstrapServers() {
            return kafka.bootstrapServers();
        }

        @Override
        public String redisUrl() {
            return redis.url();
        }

        @Override
        public Map<String, String> processorSettings() {
            return Map.of(ProcessorConfig.WAIT_REPLICAS, WAIT_REPLICAS);
        }

        @Override
        public String description() {
            return "%d Kafka nodes (replication factor %d, min.insync.replicas %d), Redis Cluster of %d masters with a replica each, %s=%s"
                    .formatted(KAFKA_NODES, KAFKA_NODES, KAFKA_NODES - 1, REDIS_MASTERS, ProcessorConfig.WAIT_REPLICAS, WAIT_REPLICAS);
        }

        @Override
        public void close() {
            try (kafka; redis) {
                // Both closed, Redis first.
            }
        }
    }
}
