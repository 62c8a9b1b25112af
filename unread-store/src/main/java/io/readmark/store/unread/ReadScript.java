package io.readmark.store.unread;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Lua scripts that only read, each with the shared helpers it needs prepended. Sent like {@link UnreadScript}:
 * EVALSHA with the SHA-1 computed here, EVAL when Redis answers NOSCRIPT (scripts vanish on a restart or failover).
 */
enum ReadScript {
    /** One page of the user's unread across authors after a cursor, in one round trip (see the script). */
    MERGED_PAGE("merged_page.lua", "members.lua", "counters.lua"),
    /** One page of the user's unread by one author after a cursor. */
    AUTHOR_PAGE("author_page.lua", "members.lua", "counters.lua"),
    /** Whether one blog is unread by one author. */
    IS_UNREAD("is_unread.lua", "members.lua", "counters.lua"),
    /** A page of the merged index of the release before z and h ({@link PreviousLayoutReads}), by its own script. */
    PREVIOUS_MERGED_PAGE("previous/merged_page.lua", "previous/members.lua"),
    /** A bounded look at a hash too big to read whole ({@link BoundedHashRead}). */
    HASH_SAMPLE("hash_sample.lua");

    private final String body;
    private final String sha;

    ReadScript(String file, String... helpers) {
        StringBuilder body = new StringBuilder();
        for (String helper : helpers) body.append(UnreadScript.resource(helper)).append('\n');
        this.body = body.append(UnreadScript.resource(file)).toString();
        this.sha = UnreadScript.sha1(this.body);
    }

    /** Runs the script, blocking; its reply is a list. */
    List<Object> run(RedisClusterCommands<String, String> redis, String[] keys, String... args) {
        try {
            return redis.evalsha(sha, ScriptOutputType.MULTI, keys, args);
        } catch (RedisNoScriptException e) {
            return redis.eval(body, ScriptOutputType.MULTI, keys, args);
        }
    }

    /** Runs the script, blocking; its reply is an integer. */
    long runForInteger(RedisClusterCommands<String, String> redis, String[] keys, String... args) {
        try {
            return redis.<Long>evalsha(sha, ScriptOutputType.INTEGER, keys, args);
        } catch (RedisNoScriptException e) {
            return redis.<Long>eval(body, ScriptOutputType.INTEGER, keys, args);
        }
    }

    /** As {@link #run}, without blocking. */
    CompletionStage<List<Object>> call(RedisClusterAsyncCommands<String, String> redis, String[] keys, String... args) {
        return redis.<List<Object>>evalsha(sha, ScriptOutputType.MULTI, keys, args)
                .exceptionallyCompose(failure -> unwrap(failure) instanceof RedisNoScriptException
                        ? redis.<List<Object>>eval(body, ScriptOutputType.MULTI, keys, args)
                        : CompletableFuture.failedStage(failure));
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
