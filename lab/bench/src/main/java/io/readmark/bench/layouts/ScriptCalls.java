package io.readmark.bench.layouts;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.readmark.store.redis.RedisConnections;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How a candidate layout talks to Redis: writes are EVALSHAs pipelined on their own byte-array connection (as the
 * product's writer sends them: no round trip per change), reads are answered at once on another. The scripts
 * are loaded when it opens; the study empties Redis with FLUSHALL, which keeps the script cache, so no NOSCRIPT is
 * expected and none is handled.
 */
final class ScriptCalls implements AutoCloseable {

    private static final int FLUSH_EVERY = 256;
    private static final int MAX_PENDING = 10_000;

    private final RedisConnections.BinaryConnection writes;
    private final RedisConnections.BinaryConnection reads;
    private final List<RedisFuture<Object>> pending = new ArrayList<>();

    ScriptCalls(RedisConnections redis, List<LuaScript> scripts) {
        this.writes = redis.openBinary();
        this.reads = redis.openBinary();
        for (LuaScript script : scripts) {
            String sha = reads.sync().scriptLoad(script.body().getBytes(StandardCharsets.UTF_8));
            if (!script.sha().equals(sha)) throw new IllegalStateException("Redis hashed " + script.name() + " as " + sha);
        }
        writes.stateful().setAutoFlushCommands(false);
    }

    void send(LuaScript script, byte[][] keys, byte[]... args) {
        pending.add(writes.async().evalsha(script.sha(), ScriptOutputType.INTEGER, keys, args));
        if (pending.size() % FLUSH_EVERY == 0) writes.stateful().flushCommands();
        if (pending.size() >= MAX_PENDING) await();
    }

    /** Returns once Redis answered every write sent; a failed one fails the study. */
    void await() {
        writes.stateful().flushCommands();
        try {
            for (RedisFuture<Object> reply : pending) reply.get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("a layout write failed: " + e, e);
        } finally {
            pending.clear();
        }
    }

    /**
     * A write whose reply decides the writes that follow it (a step of a chained write): sent once Redis applied every
     * write before it, so it sees them, and answered at once.
     */
    <T> T apply(LuaScript script, ScriptOutputType type, byte[][] keys, byte[]... args) {
        await();
        return reads.sync().evalsha(script.sha(), type, keys, args);
    }

    /** A read-only script's reply: byte[] for {@link ScriptOutputType#VALUE}, a list for {@link ScriptOutputType#MULTI}. */
    <T> T call(LuaScript script, ScriptOutputType type, byte[][] keys, byte[]... args) {
        return reads.sync().evalsha(script.sha(), type, keys, args);
    }

    /** The read connection, for the plain commands a layout reads with. */
    RedisConnections.BinaryConnection reads() {
        return reads;
    }

    @Override
    public void close() {
        writes.close();
        reads.close();
    }
}
