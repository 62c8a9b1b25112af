package io.readmark.store.reconcile;

import io.readmark.store.unread.UnreadScript;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The scripts of {@link Reconciler}: a read-only check of one user, the repair of one user, and the check of their
 * notices. The shared helpers ({@code author_field.lua}: which fields name authors, which values are integers;
 * {@code members.lua} and {@code counters.lua}: ids and records as the writers keep them; {@code notify.lua}: a repair
 * tells open streams; {@code notices.lua}: when a targeted notice counts as unread) are prepended to each, so the
 * scripts agree with the writers on what a field and a record are. Sent like the others: EVALSHA, EVAL when Redis
 * answers NOSCRIPT.
 */
enum ReconcileScript {
    CHECK("check.lua"),
    REPAIR("repair.lua"),
    CHECK_NOTICES("check_notices.lua"),
    MIGRATE_USER("migrate_user.lua");

    private final String body;
    private final String sha;

    ReconcileScript(String file) {
        this.body = UnreadScript.resource("author_field.lua") + "\n" + UnreadScript.resource("members.lua") + "\n"
                + UnreadScript.resource("counters.lua") + "\n" + UnreadScript.resource("notify.lua") + "\n" + UnreadScript.resource("notices.lua") + "\n"
                + UnreadScript.resource(file);
        this.sha = UnreadScript.sha1(body);
    }

    String body() {
        return body;
    }

    String sha() {
        return sha;
    }

    /** EVALSHA with the SHA-1 computed in Java; EVAL when Redis does not have the script (restart, failover, first use). */
    CompletableFuture<List<Object>> call(RedisClusterAsyncCommands<String, String> redis, String[] scriptKeys, String... args) {
        return redis.<List<Object>>evalsha(sha, ScriptOutputType.MULTI, scriptKeys, args).toCompletableFuture()
                .exceptionallyCompose(error -> isNoScript(error)
                        ? redis.<List<Object>>eval(body, ScriptOutputType.MULTI, scriptKeys, args).toCompletableFuture()
                        : CompletableFuture.failedFuture(error));
    }

    private static boolean isNoScript(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof RedisNoScriptException;
    }
}
