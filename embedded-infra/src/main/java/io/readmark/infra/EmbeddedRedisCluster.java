package io.readmark.infra;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A throwaway Redis Cluster of real {@code redis-server} masters (no replicas) on loopback, for tests that must see
 * slots, MOVED and CROSSSLOT. Guarantees {@link #start} returns only once every node reports {@code cluster_state:ok}
 * and knows every other node, and {@link #close()} stops every process and deletes every node's directory.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisCluster.class);

    static final int SLOTS = 16_384;
    private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final int BIND_ATTEMPTS = 3;

    /** A node and its cluster-bus port, which CLUSTER MEET must be told because it is not port + 10000 here. */
    private record Node(EmbeddedRedis redis, int busPort) {
    }

    /** Slots {@code first..last}, inclusive, as CLUSTER ADDSLOTSRANGE takes them. */
    record SlotRange(int first, int last) {
    }

    private final List<Node> nodes;
    private boolean closed;

    private EmbeddedRedisCluster(List<Node> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** True if a {@code redis-server} is on {@code PATH}; tests skip themselves when it is not. */
    public static boolean isSupported() {
        return RedisBinary.onPath(System.getenv("PATH")).isPresent();
    }

    /**
     * Starts {@code masters} nodes on free loopback ports, splits the 16384 slots evenly and joins them.
     *
     * @throws IllegalStateException if no {@code redis-server} 7.0+ is on {@code PATH}, or the cluster does not form
     */
    public static EmbeddedRedisCluster start(int masters) {
        if (masters < 1) {
            throw new IllegalArgumentException("a cluster needs at least one master, was " + masters);
        }
        Path binary = binaryOnPath(System.getenv("PATH"));
        long startNanos = System.nanoTime();
        List<Node> started = new ArrayList<>(masters);
        try {
            for (int i = 0; i < masters; i++) {
                started.add(startNode(binary));
            }
            EmbeddedRedisCluster cluster = new EmbeddedRedisCluster(started);
            cluster.assignSlotsAndMeet();
            cluster.awaitFormed();
            log.info("Redis Cluster of {} masters formed on 127.0.0.1 ports {} in {} ms", masters, cluster.ports(),
                    Duration.ofNanos(System.nanoTime() - startNanos).toMillis());
            return cluster;
        } catch (RuntimeException | Error e) {
            started.forEach(node -> node.redis().close()); // never leak processes of a half-formed cluster
            throw e;
        }
    }

    /** The system {@code redis-server}: the bundled fallback is Redis 6.2, which lacks ADDSLOTSRANGE and cluster-port. */
    static Path binaryOnPath(String pathVariable) {
        return RedisBinary.onPath(pathVariable).orElseThrow(() -> new IllegalStateException(
                "EmbeddedRedisCluster needs redis-server 7.0 or newer on PATH (e.g. apt-get install redis-server);"
                        + " the redis-server bundled with embedded-redis is 6.2 and cannot form this cluster"));
    }

    /** Contiguous ranges covering all 16384 slots, sizes differing by at most one, rounded as redis-cli rounds them. */
    static List<SlotRange> slotRanges(int masters) {
        List<SlotRange> ranges = new ArrayList<>(masters);
        for (int i = 0; i < masters; i++) {
            ranges.add(new SlotRange(rangeStart(i, masters), rangeStart(i + 1, masters) - 1));
        }
        return ranges;
    }

    private static int rangeStart(int index, int masters) {
        return (int) Math.round((double) index * SLOTS / masters);
    }

    /** {@code redis-cluster://127.0.0.1:p1,127.0.0.1:p2,...}, the form {@code REDIS_URL} takes for a cluster. */
    public String url() {
        return ports().stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(",", "redis-cluster://", ""));
    }

    /** Client ports of the masters, in slot order: the first owns slot 0. */
    public List<Integer> ports() {
        return nodes.stream().map(node -> node.redis().port()).toList();
    }

    /** The node processes; visible for tests of {@link #close()}. */
    List<EmbeddedRedis> nodes() {
        return nodes.stream().map(Node::redis).toList();
    }

    /** Stops every node and deletes its directory; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Node node : nodes) {
            try {
                node.redis().close();
            } catch (RuntimeException e) {
                log.warn("Error while stopping cluster node on port {}", node.redis().port(), e);
            }
        }
    }

    private static Node startNode(Path binary) {
        for (int attempt = 1; ; attempt++) {
            // Two ports: the bus of an ephemeral port + 10000 could be beyond 65535, so it is chosen explicitly.
            List<Integer> ports = LocalPorts.freePorts(2);
            int busPort = ports.get(1);
            List<String> clusterArgs = List.of(
                    "--cluster-enabled", "yes",
                    // Relative, so it lands in the node's private work dir (EmbeddedRedis runs redis-server there).
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-port", String.valueOf(busPort),
                    "--cluster-node-timeout", "2000",
                    // Otherwise the node that sends every MEET never learns its own address and reports it empty.
                    "--cluster-announce-ip", "127.0.0.1");
            try {
                return new Node(EmbeddedRedis.start(ports.get(0), binary, clusterArgs), busPort);
            } catch (EmbeddedRedis.PortInUseException e) {
                if (attempt >= BIND_ATTEMPTS) {
                    throw e;
                }
                log.debug("Port race while starting a cluster node (attempt {}), retrying", attempt);
            }
        }
    }

    private void assignSlotsAndMeet() {
        List<SlotRange> ranges = slotRanges(nodes.size());
        try {
            for (int i = 0; i < nodes.size(); i++) {
                int port = nodes.get(i).redis().port();
                // Distinct epochs up front (as redis-cli does), rather than waiting for the collision resolution.
                RespCommand.call(port, COMMAND_TIMEOUT, "CLUSTER", "SET-CONFIG-EPOCH", String.valueOf(i + 1));
                RespCommand.call(port, COMMAND_TIMEOUT, "CLUSTER", "ADDSLOTSRANGE",
                        String.valueOf(ranges.get(i).first()), String.valueOf(ranges.get(i).last()));
            }
            // Every pair meets directly: gossip would introduce them too, but only within a second or two.
            for (int i = 0; i < nodes.size(); i++) {
                for (Node other : nodes.subList(i + 1, nodes.size())) {
                    RespCommand.call(nodes.get(i).redis().port(), COMMAND_TIMEOUT, "CLUSTER", "MEET", "127.0.0.1",
                            String.valueOf(other.redis().port()), String.valueOf(other.busPort()));
                }
            }
        } catch (RespCommand.ErrorReply e) {
            throw new IllegalStateException("Could not form the Redis Cluster (needs redis-server 7.0 or newer): "
                    + e.getMessage(), e);
        }
    }

    private void awaitFormed() {
        long deadline = System.nanoTime() + FORM_TIMEOUT.toNanos();
        while (true) {
            boolean formed = true;
            StringBuilder seen = new StringBuilder();
            for (Node node : nodes) {
                int port = node.redis().port();
                if (!node.redis().isRunning()) {
                    throw new IllegalStateException("Redis Cluster node on port " + port + " exited while forming");
                }
                try {
                    String info = RespCommand.call(port, COMMAND_TIMEOUT, "CLUSTER", "INFO");
                    String view = RespCommand.call(port, COMMAND_TIMEOUT, "CLUSTER", "NODES");
                    formed &= info.contains("cluster_state:ok") && seesAllNodesConnected(view);
                    seen.append("\n--- node ").append(port).append(": ").append(info.lines().findFirst().orElse(""))
                            .append('\n').append(view.strip());
                } catch (UncheckedIOException e) {
                    formed = false;
                    seen.append("\n--- node ").append(port).append(": ").append(e.getMessage());
                }
            }
            if (formed) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis Cluster of " + nodes.size() + " masters did not reach"
                        + " cluster_state:ok with every node known within " + FORM_TIMEOUT + "; last views:" + seen);
            }
            // Polling: gossip has no completion signal, and a fresh master holds back cluster_state:ok for
            // 2 s after it started (CLUSTER_WRITABLE_DELAY), which is most of the startup time.
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while forming the Redis Cluster", e);
            }
        }
    }

    /** CLUSTER NODES lists exactly our nodes, none still in handshake or suspected failing, all links up. */
    private boolean seesAllNodesConnected(String clusterNodes) {
        List<String> lines = clusterNodes.lines().filter(line -> !line.isBlank()).toList();
        if (lines.size() != nodes.size()) {
            return false;
        }
        for (String line : lines) {
            String[] fields = line.split(" ");
            // id addr flags master ping-sent pong-recv config-epoch link-state [slots...]
            if (fields.length < 8 || !fields[7].equals("connected") || fields[2].contains("handshake")
                    || fields[2].contains("fail") || fields[2].contains("noaddr")) {
                return false;
            }
        }
        return true;
    }
}
