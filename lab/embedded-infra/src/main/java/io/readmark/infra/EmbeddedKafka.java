package io.readmark.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka (KRaft, broker and controller combined) running inside this JVM.
 * Guarantees that once {@code start} returns the broker is registered, unfenced and accepting clients on
 * {@link #bootstrapServers()}; {@link #close()} stops it and, for a temp log dir, deletes the data.
 * {@link #startWithScram} makes that client listener SASL_PLAINTEXT, accepting only its SCRAM user; set-up then goes
 * through {@link #internalBootstrapServers()}, the plaintext inter-broker listener, as with {@link #startBehindProxy}.
 * {@link #startClusterNode} starts one node of a replicated cluster instead.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);

    private static final int NODE_ID = 1;
    private static final String BROKER_LISTENER = "PLAINTEXT";
    private static final String SASL_LISTENER = "SASL";
    private static final String EXTERNAL_LISTENER = "EXTERNAL";
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** A free port can be grabbed by someone else between probing and binding; that race is retried. */
    private static final int BIND_ATTEMPTS = 3;

    private final KafkaRaftServer server;
    private final int port;
    private final int internalPort;
    private final Path logDir;
    private final boolean deleteLogDirOnClose;
    private boolean closed;

    private EmbeddedKafka(KafkaRaftServer server, int port, int internalPort, Path logDir, boolean deleteLogDirOnClose) {
        this.server = server;
        this.port = port;
        this.internalPort = internalPort;
        this.logDir = logDir;
        this.deleteLogDirOnClose = deleteLogDirOnClose;
    }

    /** Starts a broker on {@code port} (0 = any free port) with a fresh temp log dir that is deleted on close. */
    public static EmbeddedKafka start(int port) {
        return startInTempDir(port, null, 0);
    }

    /**
     * Starts a broker on any free port whose client listener ({@link #bootstrapServers()}) is SASL_PLAINTEXT with
     * SCRAM-SHA-512 and knows {@code user} from the start; there is no authorizer, so the user may do anything.
     */
    public static EmbeddedKafka startWithScram(ScramUser user) {
        return startInTempDir(0, Objects.requireNonNull(user, "user"), 0);
    }

    /**
     * Starts a broker on any free port whose client listener sends clients to {@code advertisedPort} on localhost, where
     * a {@link TcpProxy} forwards to {@link #port()}: every client connection, after the first, passes the proxy. Set-up
     * goes through {@link #internalBootstrapServers()}, which does not.
     */
    public static EmbeddedKafka startBehindProxy(int advertisedPort) {
        return startInTempDir(0, null, advertisedPort);
    }

    private static EmbeddedKafka startInTempDir(int port, ScramUser scramUser, int advertisedPort) {
        Path logDir = TempDirs.create("readmark-kafka-");
        try {
            return start(port, logDir, true, scramUser, advertisedPort);
        } catch (RuntimeException e) {
            TempDirs.deleteRecursively(logDir);
            throw e;
        }
    }

    /**
     * Starts a broker on {@code port} (0 = any free port) keeping its data in {@code logDir}, which is
     * formatted first if it holds no {@code meta.properties} and is reused (topics, offsets) otherwise.
     */
    public static EmbeddedKafka start(int port, Path logDir) {
        return start(port, logDir.toAbsolutePath(), false, null, 0);
    }

    private static EmbeddedKafka start(int port, Path logDir, boolean deleteLogDirOnClose, ScramUser scramUser,
                                       int advertisedPort) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        if (port != 0) {
            LocalPorts.requireFree(port, "EmbeddedKafka");
        }
        long startNanos = System.nanoTime();
        createDirectories(logDir);
        KRaftStorage.formatIfNeeded(logDir, NODE_ID, CONTROLLER_LISTENER,
                scramUser == null ? List.of() : List.of(scramUser.formatArgument()));
        for (int attempt = 1; ; attempt++) {
            List<Integer> free = LocalPorts.freePorts(3);
            int brokerPort = port != 0 ? port : free.get(0);
            int controllerPort = free.get(1);
            int internalPort = scramUser == null && advertisedPort == 0 ? brokerPort : free.get(2);
            Properties config = brokerConfig(NODE_ID, NODE_ID + "@127.0.0.1:" + controllerPort, 1, brokerPort, controllerPort,
                    logDir);
            if (scramUser != null) secure(config, brokerPort, internalPort, controllerPort);
            if (advertisedPort != 0) advertise(config, advertisedPort, brokerPort, internalPort, controllerPort);
            KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(config, false), Time.SYSTEM);
            try {
                server.startup();
            } catch (RuntimeException e) {
                stopQuietly(server);
                if (isBindFailure(e) && attempt < BIND_ATTEMPTS) {
                    log.debug("Port race while starting Kafka (attempt {}), retrying with new ports", attempt, e);
                    continue;
                }
                throw new IllegalStateException("EmbeddedKafka failed to start on port " + brokerPort
                        + " (controller port " + controllerPort + ", log dir " + logDir + ")", e);
            }
            log.info("Embedded Kafka {} started on localhost:{} in {} ms (log dir {})",
                    AppInfoParser.getVersion(), brokerPort, Duration.ofNanos(System.nanoTime() - startNanos).toMillis(), logDir);
            return new EmbeddedKafka(server, brokerPort, internalPort, logDir, deleteLogDirOnClose);
        }
    }

    /**
     * Starts one node of a multi-node KRaft cluster keeping its data in {@code logDir}: formatted with the cluster's id
     * the first time, reused after (as a restarted broker). Returns once the node is a registered, unfenced broker,
     * which needs a majority of the cluster's nodes running: start them side by side.
     */
    public static EmbeddedKafka startClusterNode(KafkaClusterNode node, Path logDir) {
        long startNanos = System.nanoTime();
        createDirectories(logDir);
        KRaftStorage.formatIfNeeded(logDir, node.nodeId(), CONTROLLER_LISTENER, List.of(), node.clusterId());
        Properties config = brokerConfig(node.nodeId(), node.voters(), node.nodes(), node.brokerPort(), node.controllerPort(),
                logDir);
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(config, false), Time.SYSTEM);
        try {
            server.startup();
        } catch (RuntimeException e) {
            stopQuietly(server);
            throw new IllegalStateException("Kafka node " + node.nodeId() + " failed to start on port " + node.brokerPort(), e);
        }
        log.info("Kafka node {} of {} started on localhost:{} in {} ms (log dir {})", node.nodeId(), node.nodes(),
                node.brokerPort(), Duration.ofNanos(System.nanoTime() - startNanos).toMillis(), logDir);
        return new EmbeddedKafka(server, node.brokerPort(), node.brokerPort(), logDir, false);
    }

    /** The bootstrap servers string for clients, e.g. {@code localhost:9092}. */
    public String bootstrapServers() {
        return "localhost:" + port;
    }

    /**
     * The plaintext listener brokers talk to each other on, for setting up what a test then uses through
     * {@link #bootstrapServers()}; the same as that unless the broker was started {@linkplain #startWithScram with SCRAM}
     * or {@linkplain #startBehindProxy behind a proxy}.
     */
    public String internalBootstrapServers() {
        return "localhost:" + internalPort;
    }

    /** The broker (client) port. */
    public int port() {
        return port;
    }

    /** The KRaft log dir holding metadata and topic data. */
    public Path logDir() {
        return logDir;
    }

    /**
     * Creates topics with the broker's default replication factor; topics that already exist are left as they are.
     * Returns once the broker serves metadata (a leader) for every partition of every named topic.
     */
    public void createTopics(Map<String, Integer> partitionsByTopic) {
        KafkaTopics.createTopics(internalBootstrapServers(), partitionsByTopic);
    }

    /** Stops broker and controller and waits for them; idempotent. Deletes the log dir if it was a temp dir. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long startNanos = System.nanoTime();
        stopQuietly(server);
        if (deleteLogDirOnClose) {
            TempDirs.deleteRecursively(logDir);
        }
        log.info("Embedded Kafka on localhost:{} stopped in {} ms",
                port, Duration.ofNanos(System.nanoTime() - startNanos).toMillis());
    }

    /**
     * A combined broker and controller among {@code nodes}: every topic, internal ones included, on all of them, and a
     * write acknowledged by all but one ({@code acks=all}), as production runs a cluster of three.
     */
    private static Properties brokerConfig(int nodeId, String voters, int nodes, int brokerPort, int controllerPort,
                                           Path logDir) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(nodeId));
        // Static voters: no dynamic-quorum snapshot, so a reused log dir works with a different controller port.
        p.put("controller.quorum.voters", voters);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        // Bind to loopback only (a test broker must not be reachable from the network) but advertise the
        // same host name that bootstrapServers() hands out.
        p.put("listeners", BROKER_LISTENER + "://127.0.0.1:" + brokerPort + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", BROKER_LISTENER + "://localhost:" + brokerPort);
        p.put("listener.security.protocol.map", BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", BROKER_LISTENER);
        p.put("log.dirs", logDir.toString());
        p.put("metadata.log.dir", logDir.toString());

        String replicas = String.valueOf(nodes);
        String minInSync = String.valueOf(Math.max(1, nodes - 1));
        p.put("offsets.topic.replication.factor", replicas);
        p.put("transaction.state.log.replication.factor", replicas);
        p.put("transaction.state.log.min.isr", minInSync);
        p.put("share.coordinator.state.topic.replication.factor", replicas);
        p.put("share.coordinator.state.topic.min.isr", minInSync);
        p.put("default.replication.factor", replicas);
        p.put("min.insync.replicas", minInSync);
        // Kafka's default, stated because the leader-kill tests rely on it: only an in-sync replica becomes leader.
        p.put("unclean.leader.election.enable", "false");
        // A SIGKILLed node's partitions move to other replicas once the controller misses its heartbeats for this long.
        if (nodes > 1) p.put("broker.session.timeout.ms", "4000");
        // Fewer internal partitions: the first group join would otherwise wait for the default 50 offsets partitions.
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.num.partitions", "1");

        // Tests and apps must create their topics explicitly; consumer groups must not wait 3 s to rebalance.
        p.put("auto.create.topics.enable", "false");
        p.put("group.initial.rebalance.delay.ms", "0");
        // Kafka's default, stated because fault tests rely on it: a SIGKILLed member's partitions move after 6 s.
        p.put("group.min.session.timeout.ms", "6000");

        // Sized for a 2-core laptop/CI box, and the default 128 MiB cleaner buffer is wasted heap here.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("group.coordinator.threads", "1");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(8L * 1024 * 1024));
        // Faster registration/unfencing at startup; never hang forever if something is wrong.
        p.put("broker.heartbeat.interval.ms", "500");
        p.put("server.max.startup.time.ms", "60000");
        return p;
    }

    /** The client listener becomes SCRAM-only; the inter-broker listener moves to a plaintext port of its own. */
    private static void secure(Properties p, int brokerPort, int internalPort, int controllerPort) {
        p.put("listeners", SASL_LISTENER + "://127.0.0.1:" + brokerPort + "," + BROKER_LISTENER + "://127.0.0.1:" + internalPort
                + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", SASL_LISTENER + "://localhost:" + brokerPort + "," + BROKER_LISTENER + "://localhost:" + internalPort);
        p.put("listener.security.protocol.map", SASL_LISTENER + ":SASL_PLAINTEXT," + BROKER_LISTENER + ":PLAINTEXT,"
                + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("sasl.enabled.mechanisms", ScramUser.MECHANISM);
        p.put("listener.name." + SASL_LISTENER.toLowerCase(Locale.ROOT) + "." + ScramUser.MECHANISM.toLowerCase(Locale.ROOT)
                + ".sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
    }

    /** Clients are sent to {@code advertisedPort}; the brokers' own listener, on a port of its own, is not. */
    private static void advertise(Properties p, int advertisedPort, int brokerPort, int internalPort, int controllerPort) {
        p.put("listeners", EXTERNAL_LISTENER + "://127.0.0.1:" + brokerPort + "," + BROKER_LISTENER + "://127.0.0.1:"
                + internalPort + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", EXTERNAL_LISTENER + "://localhost:" + advertisedPort + "," + BROKER_LISTENER + "://localhost:"
                + internalPort);
        p.put("listener.security.protocol.map", EXTERNAL_LISTENER + ":PLAINTEXT," + BROKER_LISTENER + ":PLAINTEXT,"
                + CONTROLLER_LISTENER + ":PLAINTEXT");
    }

    private static void stopQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            log.warn("Error while stopping embedded Kafka", e);
        }
    }

    private static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException
                    || Objects.toString(t.getMessage(), "").contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create Kafka log dir " + dir, e);
        }
    }
}
