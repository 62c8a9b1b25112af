package io.readmark.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka and one Redis per JVM for tests and local runs, started on first use and stopped by a shutdown hook.
 * Guarantees that {@link #shared()} always returns the same reachable {@link Infrastructure} once it succeeded.
 *
 * <p>Choice, per service: env {@code KAFKA_BOOTSTRAP_SERVERS} / {@code REDIS_URL} if set; else Testcontainers
 * if {@code READMARK_TEST_INFRA=testcontainers} (failing when no container engine answers); else
 * {@link EmbeddedKafka} / {@link EmbeddedRedis}.
 */
public final class TestInfrastructure {

    public static final String KAFKA_ENV = "KAFKA_BOOTSTRAP_SERVERS";
    public static final String REDIS_ENV = "REDIS_URL";
    public static final String MODE_ENV = "READMARK_TEST_INFRA";
    public static final String MODE_TESTCONTAINERS = "testcontainers";

    private static final Logger log = LoggerFactory.getLogger(TestInfrastructure.class);

    private static Infrastructure shared;

    private TestInfrastructure() {
    }

    /** The JVM-wide infrastructure, started lazily; a failed start is retried on the next call. */
    public static synchronized Infrastructure shared() {
        if (shared == null) {
            Started started = start(System.getenv());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "readmark-test-infra-shutdown"));
            shared = started.infrastructure();
        }
        return shared;
    }

    /** Starts whatever {@code env} does not already provide. Visible for tests, which pass their own env. */
    static Started start(Map<String, String> env) {
        // A lambda, not a method reference: only calling it may load ContainerInfrastructure.
        return start(env, () -> ContainerInfrastructure.dockerAvailable());
    }

    /** {@link #start(Map)} with the question "does a container engine answer?" answered by {@code engineAvailable}. */
    static Started start(Map<String, String> env, BooleanSupplier engineAvailable) {
        String kafka = nonBlank(env.get(KAFKA_ENV));
        String redis = nonBlank(env.get(REDIS_ENV));
        Started started = new Started();
        try {
            if (kafka != null && redis != null) {
                log.info("Test infrastructure: external Kafka {} and Redis {} (from {} / {})",
                        kafka, redis, KAFKA_ENV, REDIS_ENV);
            } else if (MODE_TESTCONTAINERS.equalsIgnoreCase(nonBlank(env.get(MODE_ENV)))) {
                // Asked for containers, a run on embedded servers would pass while testing something else.
                if (!engineAvailable.getAsBoolean()) {
                    throw new IllegalStateException(MODE_ENV + "=" + MODE_TESTCONTAINERS
                            + " but no container engine answers (DOCKER_HOST, or Testcontainers' own settings)");
                }
                // Only this branch touches ContainerInfrastructure, so only it loads Testcontainers classes.
                if (kafka == null) {
                    kafka = started.add(ContainerInfrastructure.startKafka(
                            env.getOrDefault(ContainerInfrastructure.KAFKA_IMAGE_ENV, ContainerInfrastructure.DEFAULT_KAFKA_IMAGE)));
                }
                if (redis == null) {
                    redis = started.add(ContainerInfrastructure.startRedis(
                            env.getOrDefault(ContainerInfrastructure.REDIS_IMAGE_ENV, ContainerInfrastructure.DEFAULT_REDIS_IMAGE)));
                }
                log.info("Test infrastructure: Testcontainers (Kafka {}, Redis {})", kafka, redis);
            } else {
                if (kafka == null) {
                    EmbeddedKafka embedded = started.add(EmbeddedKafka.start(0));
                    kafka = embedded.bootstrapServers();
                }
                if (redis == null) {
                    EmbeddedRedis embedded = started.add(EmbeddedRedis.start(0));
                    redis = embedded.url();
                }
                log.info("Test infrastructure: embedded (Kafka {}, Redis {})", kafka, redis);
            }
            started.infrastructure = new Infrastructure(kafka, redis);
            return started;
        } catch (RuntimeException | Error e) {
            started.close(); // do not leak a broker when the second service fails to start
            throw e;
        }
    }

    private static String nonBlank(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** What {@link #start} brought up, closed in reverse order. */
    static final class Started implements AutoCloseable {
        private final List<AutoCloseable> resources = new ArrayList<>();
        private Infrastructure infrastructure;

        Infrastructure infrastructure() {
            return infrastructure;
        }

        List<AutoCloseable> resources() {
            return List.copyOf(resources);
        }

        <T extends AutoCloseable> T add(T resource) {
            resources.add(resource);
            return resource;
        }

        String add(ContainerInfrastructure.Endpoint endpoint) {
            resources.add(endpoint.resource());
            return endpoint.address();
        }

        @Override
        public synchronized void close() {
            for (int i = resources.size() - 1; i >= 0; i--) {
                try {
                    resources.get(i).close();
                } catch (Exception e) {
                    log.warn("Error while stopping test infrastructure", e);
                }
            }
            resources.clear();
        }
    }
}
