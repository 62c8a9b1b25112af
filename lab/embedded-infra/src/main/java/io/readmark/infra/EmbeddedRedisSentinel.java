package io.readmark.infra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A throwaway Redis Sentinel deployment on loopback, as production runs one without Cluster: a master, a replica in
 * sync, and three sentinels (quorum two) that fail the master over to the replica when it dies, and make the old
 * master a replica of the new one when it is back. Guarantees {@link #start()} returns only once every sentinel
 * knows the master, its replica and the other two sentinels (a failover then needs no discovery first), and
 * {@link #close()} stops every process and deletes its directory.
 */
public final class EmbeddedRedisSentinel implements AutoCloseable {

    /** The master's name, which clients give the sentinels ({@code ?sentinelMasterId=}). */
    public static final String MASTER_NAME = "readmark";
    private static final int SENTINELS = 3;
    private static final int QUORUM = 2;
    /**
     * A dead master is noticed, and the failover begun, within a few seconds. A replica whose link was down for more
     * than ten times this before its master died is never promoted: a test cuts a link for less than that.
     */
    private static final int DOWN_AFTER_MS = 1000;
    /** After a failover that failed (a split vote), the sentinels try again after twice this. */
    private static final int FAILOVER_TIMEOUT_MS = 5000;
    private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    /** {@code INFO sentinel}'s line for the master: {@code master0:name=…,status=ok,address=127.0.0.1:P,slaves=1,sentinels=3}. */
    private static final Pattern MASTER_LINE = Pattern.compile(
            "name=" + MASTER_NAME + ",status=(\\w+),address=[^:]+:(\\d+),slaves=(\\d+),sentinels=(\\d+)");

    private final List<EmbeddedRedis> servers;
    private final List<EmbeddedRedis> sentinels;
    private boolean closed;

    private EmbeddedRedisSentinel(List<EmbeddedRedis> servers, List<EmbeddedRedis> sentinels) {
        this.servers = List.copyOf(servers);
        this.sentinels = List.copyOf(sentinels);
    }

    /**
     * Starts the master, its replica and the sentinels on free loopback ports.
     *
     * @throws IllegalStateException if a process does not start or the sentinels do not learn the deployment in time
     */
    public static EmbeddedRedisSentinel start() {
        List<EmbeddedRedis> servers = new ArrayList<>();
        List<EmbeddedRedis> sentinels = new ArrayList<>();
        try {
            EmbeddedRedis master = EmbeddedRedis.start(0);
            servers.add(master);
            servers.add(EmbeddedRedis.startReplicaOf(master));
            String config = """
                    sentinel monitor %s 127.0.0.1 %d %d
                    sentinel down-after-milliseconds %s %d
                    sentinel failover-timeout %s %d
                    """.formatted(MASTER_NAME, master.port(), QUORUM, MASTER_NAME, DOWN_AFTER_MS, MASTER_NAME, FAILOVER_TIMEOUT_MS);
            for (int i = 0; i < SENTINELS; i++) sentinels.add(EmbeddedRedis.startSentinel(config));
            EmbeddedRedisSentinel deployment = new EmbeddedRedisSentinel(servers, sentinels);
            deployment.awaitFormed();
            return deployment;
        } catch (RuntimeException e) {
            sentinels.forEach(EmbeddedRedis::close);
            servers.forEach(EmbeddedRedis::close);
            throw e;
        }
    }

    /** {@code redis-sentinel://127.0.0.1:s1,…?sentinelMasterId=readmark}, the form {@code REDIS_URL} takes for Sentinel. */
    public String url() {
        return sentinels.stream().map(sentinel -> "127.0.0.1:" + sentinel.port())
                .collect(Collectors.joining(",", "redis-sentinel://", "?sentinelMasterId=" + MASTER_NAME));
    }

    /** The server the sentinels name as master now. */
    public EmbeddedRedis master() {
        int port = masterPortNamedBy(sentinels.getFirst());
        return servers.stream().filter(server -> server.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("the sentinels name an unknown master on port " + port));
    }

    /** The server that is not {@link #master()}. */
    public EmbeddedRedis replica() {
        EmbeddedRedis master = master();
        return servers.stream().filter(server -> server != master).findFirst().orElseThrow();
    }

    /** Whether every sentinel names {@code server} as master and it answers as one: a failover to it is complete. */
    public boolean isMaster(EmbeddedRedis server) {
        for (EmbeddedRedis sentinel : sentinels) {
            if (masterPortNamedBy(sentinel) != server.port()) return false;
        }
        return RespCommand.call(server.port(), COMMAND_TIMEOUT, "INFO", "replication").contains("role:master");
    }

    private void awaitFormed() {
        long deadline = System.nanoTime() + FORM_TIMEOUT.toNanos();
        while (!sentinels.stream().allMatch(this::knowsEverything)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the sentinels did not learn the replica and each other within " + FORM_TIMEOUT
                        + ": " + sentinels.stream().map(this::masterLine).toList());
            }
            EmbeddedRedis.pause(POLL_INTERVAL); // polling: sentinels discover each other by their hello messages
        }
    }

    private boolean knowsEverything(EmbeddedRedis sentinel) {
        Matcher line = MASTER_LINE.matcher(masterLine(sentinel));
        return line.find() && line.group(1).equals("ok") && Integer.parseInt(line.group(3)) == servers.size() - 1
                && Integer.parseInt(line.group(4)) == SENTINELS;
    }

    private int masterPortNamedBy(EmbeddedRedis sentinel) {
        Matcher line = MASTER_LINE.matcher(masterLine(sentinel));
        if (!line.find()) throw new IllegalStateException("sentinel on port " + sentinel.port() + " does not monitor " + MASTER_NAME);
        return Integer.parseInt(line.group(2));
    }

    private String masterLine(EmbeddedRedis sentinel) {
        return RespCommand.call(sentinel.port(), COMMAND_TIMEOUT, "INFO", "sentinel");
    }

    /** Stops the sentinels first (so none fails over a master being stopped), then the servers; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        sentinels.forEach(EmbeddedRedis::close);
        servers.forEach(EmbeddedRedis::close);
    }
}
