package io.readmark.infra;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The Testcontainers backend of {@link TestInfrastructure}. Guarantees that no Testcontainers or docker-java
 * class is loaded unless this class is used: its methods take and return only JDK and own types.
 */
final class ContainerInfrastructure {

    static final String KAFKA_IMAGE_ENV = "READMARK_KAFKA_IMAGE";
    static final String REDIS_IMAGE_ENV = "READMARK_REDIS_IMAGE";
    /** Same Kafka release as the client jars, so protocol behaviour in containers matches the embedded broker. */
    static final String DEFAULT_KAFKA_IMAGE = "apache/kafka:4.3.1";
    static final String DEFAULT_REDIS_IMAGE = "redis:7.4";
    private static final int REDIS_PORT = 6379;

    private ContainerInfrastructure() {
    }

    /** A started service: where to reach it and how to stop it. */
    record Endpoint(String address, AutoCloseable resource) {
    }

    /** Asks Testcontainers for a working Docker engine; any failure means "no". */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static Endpoint startKafka(String image) {
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse(image)
                .asCompatibleSubstituteFor("apache/kafka"))
                // Same single-node behaviour as EmbeddedKafka: explicit topics, no initial rebalance delay.
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        kafka.start();
        return new Endpoint(kafka.getBootstrapServers(), kafka::stop);
    }

    static Endpoint startRedis(String image) {
        GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse(image)).withExposedPorts(REDIS_PORT);
        redis.start();
        return new Endpoint("redis://" + redis.getHost() + ":" + redis.getMappedPort(REDIS_PORT), redis::stop);
    }
}
