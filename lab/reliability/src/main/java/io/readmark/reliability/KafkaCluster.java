package io.readmark.reliability;

import io.readmark.infra.KafkaClusterNode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A KRaft cluster of combined brokers and controllers, each node in an OS process of its own ({@link RestartableKafka})
 * that can be SIGKILLed and started again with its data, as production runs Kafka: every topic on every node, a write
 * acknowledged once all but one node have it ({@code min.insync.replicas}), no unclean leader election. Clients
 * bootstrap from every node, so any one may be down.
 */
public final class KafkaCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaCluster.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(200);

    private final Path workDir;
    private final List<RestartableKafka> nodes = new ArrayList<>();

    private KafkaCluster(Path workDir) {
        this.workDir = workDir;
    }

    /** {@code size} nodes started side by side (a node is ready only once a majority runs); returns once all are. */
    public static KafkaCluster launch(int size) {
        KafkaCluster cluster;
        try {
            cluster = new KafkaCluster(Files.createTempDirectory("readmark-kafka-cluster-"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a Kafka cluster's work dir", e);
        }
        try {
            long started = System.nanoTime();
            for (KafkaClusterNode node : KafkaClusterNode.plan(size)) {
                Path nodeDir = cluster.workDir.resolve("node-" + node.nodeId());
                Files.createDirectories(nodeDir);
                cluster.nodes.add(RestartableKafka.clusterNode(nodeDir, node));
            }
            List<Integer> logLengths = cluster.nodes.stream().map(RestartableKafka::startProcess).toList();
            for (int i = 0; i < size; i++) cluster.nodes.get(i).awaitStarted(logLengths.get(i), started);
            log.info("Kafka cluster of {} on {} started in {} ms", size, cluster.bootstrapServers(),
                    Duration.ofNanos(System.nanoTime() - started).toMillis());
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** Every node, so that clients find the cluster whichever node is down. */
    public String bootstrapServers() {
        return nodes.stream().map(RestartableKafka::bootstrapServers).collect(Collectors.joining(","));
    }

    /** The node with that id (1 to the cluster's size). */
    public RestartableKafka node(int nodeId) {
        return nodes.get(nodeId - 1);
    }

    /**
     * The id of the node leading that partition now, or -1 while none is elected: during a failover there is a
     * moment without a leader, and callers poll through it.
     */
    public int leaderOf(String topic, int partition) {
        Node leader = describe(List.of(topic)).get(topic).partitions().get(partition).leader();
        return leader == null ? -1 : leader.id();
    }

    /** Waits until every partition of the topics has every node in sync again, as after a node came back. */
    public void awaitFullyInSync(Collection<String> topics, Duration timeout) {
        Poll.until(() -> fullyInSync(topics), timeout, POLL, () -> "partitions not fully in sync: " + underReplicated(topics));
    }

    /**
     * Waits until every partition of every topic, the internal ones and those Kafka Streams made included, has every
     * node in sync again: until then a node killed next could take a partition below {@code min.insync.replicas}.
     */
    public void awaitFullyInSync(Duration timeout) {
        awaitFullyInSync(topicNames(), timeout);
    }

    /**
     * Kills every node and deletes the cluster's data. Not a controlled shutdown: the last nodes would wait for a
     * quorum that is gone.
     */
    @Override
    public void close() {
        nodes.stream().filter(RestartableKafka::isRunning).forEach(RestartableKafka::kill);
        nodes.forEach(RestartableKafka::close);
        try (Stream<Path> paths = Files.walk(workDir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            log.warn("could not delete {}", workDir, e);
        }
    }

    /** False also while the cluster cannot say: an admin call may time out just after a node came back. */
    private boolean fullyInSync(Collection<String> topics) {
        try {
            return describe(topics).values().stream().flatMap(topic -> topic.partitions().stream())
                    .allMatch(partition -> partition.isr().size() == nodes.size() && partition.leader() != null);
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) throw e;
            return false;
        }
    }

    private String underReplicated(Collection<String> topics) {
        try {
            return underReplicatedNow(topics);
        } catch (RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private String underReplicatedNow(Collection<String> topics) {
        return describe(topics).values().stream().flatMap(topic -> topic.partitions().stream()
                        .filter(partition -> partition.isr().size() < nodes.size())
                        .map(partition -> topic.name() + "-" + partition.partition() + " isr " + ids(partition)))
                .collect(Collectors.joining(", "));
    }

    private static String ids(TopicPartitionInfo partition) {
        return partition.isr().stream().map(Node::idString).collect(Collectors.joining(",", "[", "]"));
    }

    private List<String> topicNames() {
        try (Admin admin = admin()) {
            return List.copyOf(admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list the topics", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis() / 2,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis()));
    }

    private Map<String, TopicDescription> describe(Collection<String> topics) {
        try (Admin admin = admin()) {
            return admin.describeTopics(topics).allTopicNames().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe " + topics, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
