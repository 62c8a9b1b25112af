package io.readmark.infra;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Idempotent topic creation against any Kafka (embedded, container or external).
 * Guarantees that on return every named topic exists and each of its partitions has a leader.
 */
public final class KafkaTopics {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

    private KafkaTopics() {
    }

    /**
     * Creates the topics that do not exist yet, with the broker's default replication factor (all nodes of a test
     * cluster); existing ones are left unchanged.
     */
    public static void createTopics(String bootstrapServers, Map<String, Integer> partitionsByTopic) {
        createTopics(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), partitionsByTopic);
    }

    /** {@link #createTopics(String, Map)} through an admin client of these properties (bootstrap servers, security). */
    public static void createTopics(Map<String, ?> adminProperties, Map<String, Integer> partitionsByTopic) {
        if (partitionsByTopic.isEmpty()) {
            return;
        }
        Map<String, Object> properties = new HashMap<>(adminProperties);
        properties.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "readmark-embedded-infra-admin");
        try (Admin admin = Admin.create(properties)) {
            List<NewTopic> topics = partitionsByTopic.entrySet().stream()
                    .map(e -> new NewTopic(e.getKey(), Optional.of(e.getValue()), Optional.empty()))
                    .toList();
            admin.createTopics(topics).values().forEach((topic, future) -> awaitCreated(topic, future));
            awaitLeaders(admin, List.copyOf(partitionsByTopic.keySet()));
        }
    }

    private static void awaitCreated(String topic, KafkaFuture<Void> future) {
        try {
            future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Could not create topic " + topic, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + topic, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Timed out creating topic " + topic, e);
        }
    }

    /**
     * The controller acknowledges creation before the broker's metadata cache has caught up; callers that
     * immediately assign partitions or produce would otherwise see UNKNOWN_TOPIC_OR_PARTITION warnings.
     */
    private static void awaitLeaders(Admin admin, List<String> topics) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                Map<String, TopicDescription> descriptions =
                        admin.describeTopics(topics).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                boolean ready = descriptions.values().stream()
                        .flatMap(d -> d.partitions().stream())
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
                if (ready) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("Could not describe topics " + topics, e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for topics " + topics, e);
            } catch (TimeoutException e) {
                throw new IllegalStateException("Timed out describing topics " + topics, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Topics " + topics + " have no leader after " + TIMEOUT);
            }
            // Plain polling: there is no metadata-change notification in the Admin API.
            try {
                Thread.sleep(POLL_INTERVAL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for topics " + topics, e);
            }
        }
    }
}
