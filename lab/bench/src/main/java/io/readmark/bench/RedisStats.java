package io.readmark.bench;

import io.lettuce.core.RedisFuture;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.EntryRecord;
import io.readmark.store.unread.UnreadKeys;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the benchmark reads back from the Redis it measures, on its own connection: memory, CPU, script calls, and
 * above all the unread state actually visible. Throughput figures count deliveries here, never events sent.
 */
final class RedisStats implements AutoCloseable {

    private static final int BATCH = 2_000;
    /** A command that runs this long or longer counts as slow (Redis's default is 10 ms). */
    static final long SLOW_COMMAND_MICROS = 5_000;

    private final RedisConnections.Connection connection;

    /** On a standalone Redis the bench started: it also sets which commands Redis logs as slow. */
    RedisStats(RedisConnections redis) {
        this.connection = redis.open();
        try {
            connection.sync().configSet("slowlog-log-slower-than", Long.toString(SLOW_COMMAND_MICROS));
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Σ h.total over users {@code from..to}: every delivery that a reader of the view API would see. */
    long visibleDeliveries(UnreadKeys keys, long from, long to) {
        return sumOverUsers(from, to, user -> connection.async().hget(keys.h(user), "total"), 1);
    }

    /** Σ over users {@code from..to} of the author's records in h (12 bytes each): one author's deliveries that are visible. */
    long visibleDeliveriesOf(UnreadKeys keys, long authorId, long from, long to) {
        String field = Long.toString(authorId);
        return sumOverUsers(from, to, user -> connection.async().hstrlen(keys.h(user), field), EntryRecord.BYTES);
    }

    /** Σ of one reply per user (a number, or text of one, or null for none), each divided by {@code unit}. */
    private long sumOverUsers(long from, long to, java.util.function.LongFunction<RedisFuture<?>> read, int unit) {
        long sum = 0;
        // Pipelined: one flush per batch instead of one round trip per user.
        connection.stateful().setAutoFlushCommands(false);
        try {
            for (long start = from; start <= to; start += BATCH) {
                List<RedisFuture<?>> replies = new ArrayList<>(BATCH);
                for (long user = start; user <= Math.min(to, start + BATCH - 1); user++) replies.add(read.apply(user));
                connection.stateful().flushCommands();
                for (RedisFuture<?> reply : replies) {
                    Object value = await(reply);
                    if (value != null) sum += Long.parseLong(value.toString()) / unit;
                }
            }
        } finally {
            connection.stateful().setAutoFlushCommands(true);
        }
        return sum;
    }

    /** Bytes Redis has read from and written to its clients, from one {@code INFO stats}. */
    long netBytes() {
        String info = connection.sync().info("stats");
        return (long) (infoDouble(info, "total_net_input_bytes") + infoDouble(info, "total_net_output_bytes"));
    }

    long usedMemory() {
        return infoLong("memory", "used_memory");
    }

    /** CPU seconds redis-server has used (user + system), for its utilisation during a phase. */
    double cpuSeconds() {
        String info = connection.sync().info("cpu");
        return infoDouble(info, "used_cpu_user") + infoDouble(info, "used_cpu_sys");
    }

    /** Scripts Redis has run (EVALSHA and EVAL), a cheap progress signal before the exact count. */
    long scriptCalls() {
        String info = connection.sync().info("commandstats");
        return commandCalls(info, "cmdstat_evalsha") + commandCalls(info, "cmdstat_eval");
    }

    /** Microseconds Redis spent executing scripts (EVALSHA and EVAL), excluding reading and parsing the commands. */
    long scriptMicros() {
        String info = connection.sync().info("commandstats");
        return commandField(info, "cmdstat_evalsha", "usec") + commandField(info, "cmdstat_eval", "usec");
    }

    /**
     * Microseconds Redis spent executing the given commands so far (INFO commandstats names, lower case). A command a
     * script calls is counted in the script's time and in its own, so callers name only the commands they send.
     */
    long commandMicros(java.util.Collection<String> commands) {
        String info = connection.sync().info("commandstats");
        long micros = 0;
        for (String command : commands) micros += commandField(info, "cmdstat_" + command, "usec");
        return micros;
    }

    /** Calls of one command so far (INFO commandstats name, lower case, e.g. {@code wait}). */
    long calls(String command) {
        return commandCalls(connection.sync().info("commandstats"), "cmdstat_" + command);
    }

    /** This server's replication offset: on a master the bytes it has sent its replicas, on a replica those it applied. */
    long replicationOffset() {
        return infoLong("replication", "master_repl_offset");
    }

    long keys() {
        return connection.sync().dbsize();
    }

    /**
     * Commands so far that ran {@link #SLOW_COMMAND_MICROS} or longer inside Redis (wall clock), from the id of the
     * newest slow-log entry (ids count every entry ever logged, whatever the log kept). The bench's commands normally
     * take far less, and the clients queued behind a slow one wait up to as long.
     */
    long slowCommands() {
        List<Object> newest = connection.sync().slowlogGet(1);
        return newest.isEmpty() ? 0 : ((Number) ((List<?>) newest.getFirst()).getFirst()).longValue() + 1;
    }

    String version() {
        return infoString(connection.sync().info("server"), "redis_version");
    }

    /** One numeric field of {@code INFO section}. */
    long infoLong(String section, String name) {
        return Long.parseLong(infoString(connection.sync().info(section), name));
    }

    private static double infoDouble(String info, String name) {
        return Double.parseDouble(infoString(info, name));
    }

    static String infoString(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) return line.substring(name.length() + 1).trim();
        }
        throw new IllegalStateException("Redis INFO has no " + name);
    }

    static long commandCalls(String info, String command) {
        return commandField(info, command, "calls");
    }

    /** One numeric field of a command's line in INFO commandstats, e.g. calls or usec; 0 if never called. */
    static long commandField(String info, String command, String field) {
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith(command + ":")) continue;
            for (String pair : line.substring(command.length() + 1).split(",")) {
                if (pair.startsWith(field + "=")) return Long.parseLong(pair.substring(field.length() + 1));
            }
        }
        return 0;
    }

    private static <T> T await(RedisFuture<T> reply) {
        try {
            return reply.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading Redis", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Redis read failed: " + e, e);
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
