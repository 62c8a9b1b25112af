package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisRetry;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;

/**
 * Sends script calls pipelined on a dedicated connection and keeps each until Redis confirmed it:
 * {@link #awaitAcknowledged()} returns only once every one was, retrying failures with backoff. Used by one thread.
 * A retry sends again every write from the first failed one on, in their order, also those after it that succeeded:
 * the scripts are idempotent but an unfollow and a later delivery do not commute, and applying them again in order
 * ends as if each had succeeded the first time.
 * Asked to wait for replicas, it keeps the acknowledged writes until {@link ReplicaAcknowledgement} confirmed them too,
 * and sends them again, as a failed round, when it cannot: a failover can lose only writes not yet confirmed.
 */
final class ScriptPipeline implements AutoCloseable {

    /** Logs as the writer, the class operators know these messages by. */
    private static final Logger log = LoggerFactory.getLogger(UnreadWriter.class);
    private static final int FLUSH_EVERY = 256;
    private static final Duration FLUSH_WHILE_WAITING = Duration.ofMillis(100);

    private final RedisConnections.BinaryConnection connection;
    private final RedisClusterAsyncCommands<byte[], byte[]> redis;
    private final int maxPending;
    private final LongConsumer deliveriesApplied;
    private final LongConsumer writesRetried;
    private final ReplicaAcknowledgement replicas;
    private final WriteGuard guard;
    /** Writes Redis applied that {@link #replicas} has not confirmed yet (only when it is enabled). */
    private final List<ScriptCall> unconfirmed = new ArrayList<>();
    private final List<PendingWrite> pending = new ArrayList<>();
    /** How many of {@link #pending}, from the first, are known answered ({@link #awaitUnansweredAtMost}). */
    private int answeredThrough;
    /** Per-user changes of {@link #pending}, and of the writes sent since the last flush: what the limits count. */
    private int pendingChanges;
    private int unflushed;

    private record PendingWrite(ScriptCall write, CompletableFuture<Object> result) {
    }

    /** See {@link UnreadWriter}'s constructors for what each argument means. */
    ScriptPipeline(RedisConnections.BinaryConnection connection, int maxPending, LongConsumer deliveriesApplied,
                   LongConsumer writesRetried, int waitReplicas, WriteGuard guard) {
        this.connection = connection;
        this.redis = connection.async();
        this.maxPending = maxPending;
        this.deliveriesApplied = deliveriesApplied;
        this.writesRetried = writesRetried;
        this.replicas = new ReplicaAcknowledgement(connection, waitReplicas);
        this.guard = guard;
        loadScripts(connection);
        connection.stateful().setAutoFlushCommands(false);
    }

    /**
     * SCRIPT LOAD up front so the first EVALSHAs hit. Not fatal: scripts also vanish on restart or failover, and a
     * round that meets NOSCRIPT loads them again before it retries.
     */
    private static void loadScripts(RedisConnections.BinaryConnection connection) {
        try {
            for (UnreadScript script : UnreadScript.values()) {
                String sha = connection.sync().scriptLoad(script.body());
                if (!script.sha().equals(sha)) {
                    throw new IllegalStateException("Redis hashed " + script + " as " + sha + ", expected " + script.sha());
                }
            }
        } catch (io.lettuce.core.RedisException e) {
            log.warn("could not preload scripts ({}); they are loaded once Redis answers NOSCRIPT", e.toString());
        }
    }

    /**
     * Sends the call, or buffers it until the next flush; waits for all pending ones once they reach the limit. The
     * guard sees it first, here only: a retry sends again what it already let through.
     */
    void submit(ScriptCall write) {
        // Without a guard, the users are not even read out of the keys: the fan-out's hot path.
        if (guard != WriteGuard.NONE) guard.beforeWriting(write.users());
        addPending(write);
        unflushed += write.changes();
        if (unflushed >= FLUSH_EVERY) flush();
        if (pendingChanges >= maxPending) awaitAcknowledged();
    }

    private void addPending(ScriptCall write) {
        replicas.beforeSending(write);
        CompletableFuture<Object> result = redis.evalsha(write.script().sha(), ScriptOutputType.INTEGER, write.keys(), write.args())
                .toCompletableFuture();
        pending.add(new PendingWrite(write, result));
        pendingChanges += write.changes();
    }

    void flush() {
        connection.stateful().flushCommands();
        unflushed = 0;
    }

    int pendingCount() {
        return pending.size();
    }

    /** As {@link UnreadWriter#awaitAcknowledged()}. */
    void awaitAcknowledged() {
        flush();
        Duration backoff = RedisRetry.FIRST;
        long failingSince = 0;
        int retries = 0;
        boolean scriptsReloaded = false;
        while (!pending.isEmpty()) {
            long roundStarted = System.nanoTime();
            awaitSettled();
            int firstFailed = -1;
            Throwable lastError = null;
            boolean onlyNoScript = true;
            boolean noScript = false;
            long delivered = 0;
            for (int i = 0; i < pending.size(); i++) {
                Throwable error = failureOf(pending.get(i));
                if (error == null) {
                    if (firstFailed < 0) delivered += pending.get(i).write().deliveries();
                    continue;
                }
                if (firstFailed < 0) firstFailed = i;
                lastError = error;
                onlyNoScript &= error instanceof RedisNoScriptException;
                noScript |= error instanceof RedisNoScriptException;
            }
            if (delivered > 0) deliveriesApplied.accept(delivered);
            // Failed writes are sent again from the first one on.
            int applied = firstFailed < 0 ? pending.size() : firstFailed;
            List<ScriptCall> toSend = new ArrayList<>();
            for (int i = applied; i < pending.size(); i++) toSend.add(pending.get(i).write());
            if (replicas.enabled()) for (int i = 0; i < applied; i++) unconfirmed.add(pending.get(i).write());
            pending.clear();
            pendingChanges = 0;
            answeredThrough = 0;
            if (firstFailed < 0) {
                lastError = unreplicated();
                if (lastError == null) {
                    unconfirmed.clear();
                    if (retries > 0) {
                        long failedForMs = Duration.ofNanos(System.nanoTime() - failingSince).toMillis();
                        log.atInfo().addKeyValue("failedForMs", failedForMs).addKeyValue("retries", retries)
                                .log("Redis writes succeeded again after {} s and {} retries", "%.1f".formatted(failedForMs / 1000.0), retries);
                    }
                    return;
                }
                onlyNoScript = false;
                toSend.addAll(unconfirmed);
                unconfirmed.clear();
            }
            if (onlyNoScript && !scriptsReloaded) {
                // Redis restarted or failed over and forgot the scripts: nothing to wait for.
                scriptsReloaded = true;
                log.atInfo().addKeyValue("writes", toSend.size()).log("Redis had lost the scripts; loading them and sending the writes again");
            } else {
                if (retries++ == 0) failingSince = roundStarted;
                writesRetried.accept(toSend.size());
                log.atWarn().addKeyValue("writes", toSend.size()).addKeyValue("error", lastError.toString())
                        .addKeyValue("retryInMs", backoff.toMillis())
                        .addKeyValue("failingForMs", Duration.ofNanos(System.nanoTime() - failingSince).toMillis())
                        .log("Redis writes failed, retrying");
                pauseUnlessReconnected(backoff);
                backoff = RedisRetry.after(backoff);
            }
            if (noScript) loadScriptsAgain();
            toSend.forEach(this::addPending);
            flush();
        }
    }

    /**
     * Null once the replicas confirmed every applied write, else why not: then they are all sent again, in order, as
     * after a failure (on a promoted replica that missed some, they apply again; idempotent, in order, exact).
     */
    private Throwable unreplicated() {
        try {
            replicas.confirm();
            return null;
        } catch (ReplicaAcknowledgement.NotReplicated e) {
            return e;
        }
    }

    /** As {@link UnreadWriter#awaitUnansweredAtMost}. */
    void awaitUnansweredAtMost(int unanswered) {
        flush();
        int last = pending.size() - 1;
        for (int newest = 0; last >= answeredThrough && newest + pending.get(last).write().changes() <= unanswered; last--) {
            newest += pending.get(last).write().changes();
        }
        for (; answeredThrough <= last; answeredThrough++) {
            if (!awaitAnswer(pending.get(answeredThrough).result())) {
                awaitAcknowledged();
                return;
            }
        }
    }

    /** Waits for an answer, flushing now and then (see {@link #awaitSettled}); false if it is a failure. */
    private boolean awaitAnswer(CompletableFuture<?> answer) {
        while (true) {
            try {
                answer.get(FLUSH_WHILE_WAITING.toMillis(), TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                flush();
            } catch (ExecutionException | CancellationException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Redis", e);
            }
        }
    }

    /** The error a write ended with, or null if Redis applied it. */
    private static Throwable failureOf(PendingWrite write) {
        try {
            write.result().join();
            return null;
        } catch (CompletionException e) {
            return e.getCause() != null ? e.getCause() : e;
        } catch (CancellationException e) {
            return e;
        }
    }

    /** SCRIPT LOAD on this connection (every master of a cluster); a failure shows as NOSCRIPT in the next round. */
    private void loadScriptsAgain() {
        List<CompletableFuture<String>> loads = new ArrayList<>();
        for (UnreadScript script : UnreadScript.values()) loads.add(redis.scriptLoad(script.body()).toCompletableFuture());
        flush();
        try {
            CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new)).get();
        } catch (ExecutionException | CancellationException e) {
            log.debug("could not load the scripts now ({}); the next round tries again", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading scripts", e);
        }
    }

    /**
     * Waits until every pending write has an answer or has timed out. Writes submitted while the connection was down
     * wait in the connection's buffer, which Lettuce does not send by itself on reconnect when auto-flush is off;
     * flushing now and then sends them as soon as the connection is back.
     */
    private void awaitSettled() {
        // A failed write has settled too: the caller sorts them out.
        awaitAnswer(CompletableFuture.allOf(pending.stream().map(PendingWrite::result).toArray(CompletableFuture[]::new)));
    }

    /**
     * Waits {@code backoff} before a retry, or less if the connection was down and is back: a Redis that is up again
     * should not wait for the backoff of its outage.
     */
    private void pauseUnlessReconnected(Duration backoff) {
        long deadline = System.nanoTime() + backoff.toNanos();
        boolean wasDown = !connection.stateful().isOpen();
        while (System.nanoTime() < deadline) {
            if (wasDown && connection.stateful().isOpen()) return;
            sleep(Duration.ofNanos(Math.min(FLUSH_WHILE_WAITING.toNanos(), deadline - System.nanoTime())));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry Redis writes", e);
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
