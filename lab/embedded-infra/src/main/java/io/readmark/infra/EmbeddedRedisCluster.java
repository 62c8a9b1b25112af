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
 * A throwaway Redis Cluster of real {@code redis-server} masters on loopback, for tests that must see slots, MOVED and
 * CROSSSLOT, and with {@link #startWithReplicas} a replica per master for failover tests: the {@code redis-server} on
 * {@code PATH}, else the one bundled with embedded-redis, so it needs nothing installed. Guarantees {@code start}
 * returns only once every node reports {@code cluster_state:ok} and knows every other node, and every replica is in
 * sync (or throws, never returns a half-formed cluster), and {@link #close()} stops every process and deletes every
 * node's directory.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisCluster.class);

    static final int SLOTS = 16_384;
    private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(20);
    private static final int BIND_ATTEMPTS = 3;
    /** Where every redis-server before 7.0 (the bundled one is 6.2) puts the cluster bus; 7.0+ defaults to it too. */
    static final int BUS_PORT_OFFSET = 10_000;

    /** A node; its cluster bus listens on {@code port + BUS_PORT_OFFSET}; {@code tlsPort} 0 when it speaks no TLS. */
    private record Node(EmbeddedRedis redis, int tlsPort) {
        int busPort() {
            return redis.port() + BUS_PORT_OFFSET;
        }
    }

    /** Slots {@code first..last}, inclusive. */
    record SlotRange(int first, int last) {
    }

    /** A cluster fit for failover tests: a dead master is noticed, and its replica promoted, within a few seconds. */
    private static final String FAILOVER_NODE_TIMEOUT_MS = "1000";

    /** Masters first, in slot order, then the replicas, the i-th replicating the i-th master. */
    private final List<Node> nodes;
    private final int masters;
    private boolean closed;

    private EmbeddedRedisCluster(List<Node> nodes, int masters) {
        this.nodes = List.copyOf(nodes);
        this.masters = masters;
    }

    /**
     * Starts {@code masters} nodes on free loopback ports, splits the 16384 slots evenly and joins them.
     *
     * @throws IllegalStateException if the nodes do not start or the cluster does not form
     */
    public static EmbeddedRedisCluster start(int masters) {
        return start(masters, null);
    }

    /**
     * As {@link #start(int)}, each node also speaking TLS with the certificate {@code certificates} signed, on a port
     * of its own ({@link #tlsUrl()}), and the cluster bus in TLS only. The plain ports stay, for forming the cluster
     * and its tests; a TLS client learns the nodes' TLS ports from the cluster. Needs redis-server 7.0 or later.
     */
    public static EmbeddedRedisCluster startTls(int masters, TlsCertificates certificates) {
        return start(masters, certificates);
    }

    /**
     * As {@link #start(int)}, each master with a replica in sync, and a node timeout of a second: a SIGKILLed master
     * ({@link #kill}) is failed over to its replica automatically within seconds. Full syncs start at once rather
     * than after Redis's diskless-sync delay.
     */
    public static EmbeddedRedisCluster startWithReplicas(int masters) {
        return start(masters, null, true);
    }

    private static EmbeddedRedisCluster start(int masters, TlsCertificates certificates) {
        return start(masters, certificates, false);
    }

    private static EmbeddedRedisCluster start(int masters, TlsCertificates certificates, boolean withReplicas) {
        if (masters < 1) {
            throw new IllegalArgumentException("a cluster needs at least one master, was " + masters);
        }
        Path binary = RedisBinary.locate();
        long startNanos = System.nanoTime();
        int count = withReplicas ? 2 * masters : masters;
        List<Node> started = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                started.add(startNode(binary, certificates, withReplicas));
            }
            EmbeddedRedisCluster cluster = new EmbeddedRedisCluster(started, masters);
            cluster.assignSlotsAndMeet();
            cluster.awaitFormed();
            if (withReplicas) cluster.replicateAndSync();
            log.info("Redis Cluster of {} masters{} formed on 127.0.0.1 ports {} in {} ms", masters,
                    withReplicas ? " with a replica each" : "", cluster.ports(), Duration.ofNanos(System.nanoTime() - startNanos).toMillis());
            return cluster;
        } catch (RuntimeException | Error e) {
            started.forEach(node -> node.redis().close()); // never leak processes of a half-formed cluster
            throw e;
        }
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

    /** {@code CLUSTER ADDSLOTS first ... last}: one argument per slot, as Redis 6.2 has no ADDSLOTSRANGE. */
    static String[] addSlots(SlotRange range) {
        String[] args = new String[2 + range.last() - range.first() + 1];
        args[0] = "CLUSTER";
        args[1] = "ADDSLOTS";
        for (int slot = range.first(); slot <= range.last(); slot++) {
            args[2 + slot - range.first()] = String.valueOf(slot);
        }
        return args;
    }

    /** {@code redis-cluster://127.0.0.1:p1,127.0.0.1:p2,...}, the form {@code REDIS_URL} takes for a cluster. */
    public String url() {
        return ports().stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(",", "redis-cluster://", ""));
    }

    /**
     * Creates these ACL users ({@code ACL SETUSER} tokens each, as {@link DocumentedRedisUsers#rules} gives them) on every
     * node, then disables the default user: from here on only they get in. After the cluster formed, as forming it
     * takes commands no deployable's user may send.
     */
    public void requireUsers(List<List<String>> rules) {
        for (int port : ports()) {
            for (List<String> rule : rules) {
                List<String> args = new ArrayList<>(List.of("ACL", "SETUSER"));
                args.addAll(rule);
                RespCommand.call(port, COMMAND_TIMEOUT, args.toArray(String[]::new));
            }
            RespCommand.call(port, COMMAND_TIMEOUT, "ACL", "SETUSER", "default", "off");
        }
    }

    /** {@code rediss-cluster://127.0.0.1:t1,...}, the masters' TLS ports, for a cluster started with {@link #startTls}. */
    public String tlsUrl() {
        if (nodes.getFirst().tlsPort() == 0) throw new IllegalStateException("this cluster speaks no TLS");
        return nodes.stream().map(node -> "127.0.0.1:" + node.tlsPort()).collect(Collectors.joining(",", "rediss-cluster://", ""));
    }

    /** Client ports of the masters as started, in slot order: the first owns slot 0. */
    public List<Integer> ports() {
        return nodes.subList(0, masters).stream().map(node -> node.redis().port()).toList();
    }

    /** The client port of the replica started for the master started on {@code masterPort}. */
    public int replicaOf(int masterPort) {
        int index = ports().indexOf(masterPort);
        if (index < 0 || nodes.size() == masters) throw new IllegalArgumentException("no replica started for " + masterPort);
        return nodes.get(masters + index).redis().port();
    }

    /** SIGKILLs the node on {@code port}, as a crashed host; its replica, if any, takes over once the others agree. */
    public void kill(int port) {
        node(port).kill();
    }

    /** Starts the node on {@code port} again with its {@code nodes.conf}; a master failed over rejoins as a replica. */
    public void restart(int port) {
        node(port).restart();
    }

    /** Whether the node on {@code port} answers as a master (a replica promoted does, once it won the election). */
    public boolean isMaster(int port) {
        return RespCommand.call(port, COMMAND_TIMEOUT, "INFO", "replication").contains("role:master");
    }

    /** Whether the node on {@code port} is a replica in sync with its master. */
    public boolean isSyncedReplica(int port) {
        return node(port).isSyncedReplica();
    }

    /** Cuts the replication link of the replica on {@code port}, as {@link EmbeddedRedis#cutReplication()} does. */
    public void cutReplication(int replicaPort) {
        node(replicaPort).cutReplication();
    }

    /** Lets a replica cut by {@link #cutReplication} resync, as {@link EmbeddedRedis#restoreReplication()} does. */
    public void restoreReplication(int replicaPort) {
        node(replicaPort).restoreReplication();
    }

    private EmbeddedRedis node(int port) {
        return nodes.stream().map(Node::redis).filter(redis -> redis.port() == port).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node of this cluster on port " + port));
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

    private static Node startNode(Path binary, TlsCertificates certificates, boolean forFailover) {
        for (int attempt = 1; ; attempt++) {
            // Redis 6.2 cannot be told a bus port (7.0's cluster-port), so the client port is one whose + 10000 is free.
            int port = LocalPorts.freePortWithFreeOffset(BUS_PORT_OFFSET);
            List<String> clusterArgs = new ArrayList<>(List.of(
                    "--cluster-enabled", "yes",
                    // Relative, so it lands in the node's private work dir (EmbeddedRedis runs redis-server there).
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", forFailover ? FAILOVER_NODE_TIMEOUT_MS : "2000",
                    // Otherwise the node that sends every MEET never learns its own address and reports it empty.
                    "--cluster-announce-ip", "127.0.0.1"));
            if (forFailover) clusterArgs.addAll(List.of("--repl-diskless-sync-delay", "0"));
            int tlsPort = certificates == null ? 0 : LocalPorts.freePort();
            if (certificates != null) {
                // The bus port named, as with TLS on it would otherwise move to tls-port + 10000.
                clusterArgs.addAll(List.of("--tls-port", String.valueOf(tlsPort), "--tls-cluster", "yes",
                        "--cluster-port", String.valueOf(port + BUS_PORT_OFFSET),
                        "--tls-cert-file", certificates.certFile().toString(), "--tls-key-file", certificates.keyFile().toString(),
                        "--tls-ca-cert-file", certificates.caFile().toString(), "--tls-auth-clients", "no"));
            }
            try {
                return new Node(EmbeddedRedis.start(port, binary, clusterArgs), tlsPort);
            } catch (EmbeddedRedis.PortInUseException e) {
                if (attempt >= BIND_ATTEMPTS) {
                    throw e;
                }
                log.debug("Port race while starting a cluster node (attempt {}), retrying", attempt);
            }
        }
    }

    private void assignSlotsAndMeet() {
        List<SlotRange> ranges = slotRanges(masters);
        try {
            for (int i = 0; i < masters; i++) {
                int port = nodes.get(i).redis().port();
                // Distinct epochs up front (as redis-cli does), rather than waiting for the collision resolution.
                RespCommand.call(port, COMMAND_TIMEOUT, "CLUSTER", "SET-CONFIG-EPOCH", String.valueOf(i + 1));
                RespCommand.call(port, COMMAND_TIMEOUT, addSlots(ranges.get(i)));
            }
            // Every pair meets directly: gossip would introduce them too, but only within a second or two.
            for (int i = 0; i < nodes.size(); i++) {
                for (Node other : nodes.subList(i + 1, nodes.size())) {
                    RespCommand.call(nodes.get(i).redis().port(), COMMAND_TIMEOUT, "CLUSTER", "MEET", "127.0.0.1",
                            String.valueOf(other.redis().port()), String.valueOf(other.busPort()));
                }
            }
        } catch (RespCommand.ErrorReply e) {
            throw new IllegalStateException("Could not form the Redis Cluster: " + e.getMessage(), e);
        }
    }

    /** Makes each replica replicate its master (which it knows once formed) and waits until every one is in sync. */
    private void replicateAndSync() {
        for (int i = 0; i < masters; i++) {
            String masterId = RespCommand.call(nodes.get(i).redis().port(), COMMAND_TIMEOUT, "CLUSTER", "MYID").strip();
            RespCommand.call(nodes.get(masters + i).redis().port(), COMMAND_TIMEOUT, "CLUSTER", "REPLICATE", masterId);
        }
        long deadline = System.nanoTime() + FORM_TIMEOUT.toNanos();
        for (Node replica : nodes.subList(masters, nodes.size())) {
            while (!replica.redis().isSyncedReplica()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("replica on port " + replica.redis().port() + " did not sync within " + FORM_TIMEOUT);
                }
                EmbeddedRedis.pause(POLL_INTERVAL);
            }
        }
        // Every node must also know every replica as one (gossip spreads it), so that a client's topology, read from
        // whichever node, shows each master's replica.
        for (Node node : nodes) {
            while (replicasKnownTo(node.redis().port()) < masters) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("node on port " + node.redis().port() + " did not learn every replica within " + FORM_TIMEOUT);
                }
                EmbeddedRedis.pause(POLL_INTERVAL);
            }
        }
    }

    /** How many nodes {@code CLUSTER NODES} of the node on {@code port} lists as a replica of some master. */
    private static long replicasKnownTo(int port) {
        return RespCommand.call(port, COMMAND_TIMEOUT, "CLUSTER", "NODES").lines()
                .map(line -> line.split(" "))
                .filter(fields -> fields.length > 3 && fields[2].contains("slave") && !fields[3].equals("-"))
                .count();
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
                throw new IllegalStateException("Redis Cluster of " + nodes.size() + " nodes did not reach"
                        + " cluster_state:ok with every node known within " + FORM_TIMEOUT + "; last views:" + seen);
            }
            // Polling: gossip has no completion signal, and a fresh master holds back cluster_state:ok for
            // 2 s after it started (CLUSTER_WRITABLE_DELAY).
            EmbeddedRedis.pause(POLL_INTERVAL);
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
