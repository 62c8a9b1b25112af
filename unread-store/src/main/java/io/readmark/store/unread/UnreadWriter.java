package io.readmark.store.unread;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.notice.NoticeLimits;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisRetry;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * Applies unread changes to Redis without a round trip per change: scripts are pipelined on a dedicated connection,
 * and {@link #awaitAcknowledged()} returns only once Redis confirmed every one of them, retrying failures with
 * backoff. A caller that commits Kafka offsets after it therefore never loses a change. Used by one thread.
 * A retry sends again every write from the first failed one on, in their order, also those after it that succeeded:
 * the scripts are idempotent but an unfollow and a later delivery do not commute, and applying them again in order
 * ends as if each had succeeded the first time.
 * A chained write (an all-read) sends its next steps once Redis answered the step before, within the same
 * {@link #awaitAcknowledged()}: they too are acknowledged before it returns.
 * Keys and arguments go out as bytes encoded here (see {@link RedisConnections.BinaryConnection}): a fan-out sends
 * seven keys per follower, so per-argument costs on the I/O thread bound the pipeline.
 */
public final class UnreadWriter implements UnreadChanges, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UnreadWriter.class);
    private static final int FLUSH_EVERY = 256;
    /** Keys per user of the delivery and the removal scripts (the same seven, in the same order), which take several users' keys in turn. */
    private static final int USER_KEYS = 7;
    private static final Duration FLUSH_WHILE_WAITING = Duration.ofMillis(100);
    private static final byte[] READ = ascii("read");
    private static final byte[] REMOVED = ascii("removed");
    private static final byte[] JOINED = ascii("J");
    private static final byte[] LEFT = ascii("L");
    private static final byte[] NOTICES = ascii("notices");
    private static final byte[] ALL = ascii("all");
    /** Counts fields an all-read step scans: its script's work, and how many author steps it calls for. */
    private static final byte[] ALL_READ_SCAN = UnreadKeys.decimal(100);
    private static final byte[] FIRST_CURSOR = UnreadKeys.decimal(0);

    private final RedisConnections.BinaryConnection connection;
    private final RedisClusterAsyncCommands<byte[], byte[]> redis;
    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final byte[] maxNoticesPerAudience;
    private final byte[] maxTargetedNotices;
    private final byte[] maxNoticeReads;
    private final byte[] maxWithdrawn;
    private final byte[] maxUnreadPerAuthor;
    private final byte[] maxMarksPerUser;
    private final int maxPending;
    private final boolean cluster;
    private final LongConsumer deliveriesApplied;
    private final LongConsumer writesRetried;
    private final List<PendingWrite> pending = new ArrayList<>();
    /** How many of {@link #pending}, from the first, are known answered ({@link #awaitUnansweredAtMost}). */
    private int answeredThrough;
    /** Per-user changes of {@link #pending}, and of the writes sent since the last flush: what the limits count. */
    private int pendingChanges;
    private int unflushed;

    /** A script to send; {@code next}, when there is one, turns its reply into the writes that follow from it. */
    private record Write(UnreadScript script, byte[][] keys, byte[][] args, Function<Object, List<Write>> next) {

        /** How many users' deliveries it makes, or 0 for any other change. */
        int deliveries() {
            return switch (script) {
                case DELIVER_ONE, DELIVER_MANY -> changes();
                default -> 0;
            };
        }

        /** How many per-user changes it makes: what {@link #awaitUnansweredAtMost} and the limits on pending writes count. */
        int changes() {
            return switch (script) {
                case DELIVER_MANY, REMOVE_MANY -> keys.length / USER_KEYS;
                default -> 1;
            };
        }
    }

    private record PendingWrite(Write write, CompletableFuture<Object> result) {
    }

    /**
     * @param maxPending how many unacknowledged per-user changes may be in flight before a write waits for all of them
     *                   (a script delivering to many users counts each)
     */
    public UnreadWriter(RedisConnections.BinaryConnection connection, UnreadKeys keys, UnreadLimits limits, int maxPending) {
        this(connection, keys, limits, maxPending, applied -> { });
    }

    /**
     * @param deliveriesApplied told how many users' deliveries Redis acknowledged (a script for many counts each), each
     *                          time some were
     */
    public UnreadWriter(RedisConnections.BinaryConnection connection, UnreadKeys keys, UnreadLimits limits, int maxPending,
                        LongConsumer deliveriesApplied) {
        this(connection, keys, limits, maxPending, deliveriesApplied, retried -> { });
    }

    /**
     * @param writesRetried told how many writes are sent again after Redis failed them (not after it merely forgot
     *                      the scripts), once per failed round: what an operator's retry alert counts
     */
    public UnreadWriter(RedisConnections.BinaryConnection connection, UnreadKeys keys, UnreadLimits limits, int maxPending,
                        LongConsumer deliveriesApplied, LongConsumer writesRetried) {
        this.connection = connection;
        NoticeLimits noticeLimits = limits.notices();
        this.noticeKeys = new NoticeKeys(keys.prefix());
        this.maxNoticesPerAudience = UnreadKeys.decimal(noticeLimits.maxNoticesPerAudience());
        this.maxTargetedNotices = UnreadKeys.decimal(noticeLimits.maxTargetedNotices());
        this.maxNoticeReads = UnreadKeys.decimal(noticeLimits.maxNoticeReads());
        this.maxWithdrawn = UnreadKeys.decimal(noticeLimits.maxWithdrawn());
        this.redis = connection.async();
        this.keys = keys;
        this.maxUnreadPerAuthor = UnreadKeys.decimal(limits.maxUnreadPerAuthor());
        this.maxMarksPerUser = UnreadKeys.decimal(limits.maxMarksPerUser());
        this.maxPending = maxPending;
        this.deliveriesApplied = deliveriesApplied;
        this.writesRetried = writesRetried;
        this.cluster = connection.stateful() instanceof StatefulRedisClusterConnection;
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

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        deliverToEach(List.of(userId), authorId, blogId, publishedAtMillis);
    }

    /**
     * As {@link #deliver} to each user, in scripts of up to {@value UnreadChanges#MAX_USERS_PER_CALL} users: one
     * script per follower costs Redis a call, a script lookup and the arguments' parsing each. On Redis Cluster a
     * script holds only users of one slot, so users of different slots go out one script each.
     */
    @Override
    public void deliverToEach(List<Long> userIds, long authorId, long blogId, long publishedAtMillis) {
        submitForEach(UnreadScript.DELIVER_ONE, UnreadScript.DELIVER_MANY, userIds, authorId,
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId), UnreadKeys.decimal(publishedAtMillis),
                        maxUnreadPerAuthor, MergedMember.of(authorId, blogId)});
    }

    @Override
    public void remove(long userId, long authorId, long blogId, long atMillis) {
        submitForEach(UnreadScript.REMOVE_ONE, UnreadScript.REMOVE_MANY, List.of(userId), authorId,
                removeArgs(authorId, blogId, atMillis, READ));
    }

    @Override
    public void delete(long userId, long authorId, long blogId, long atMillis) {
        deleteForEach(List.of(userId), authorId, blogId, atMillis);
    }

    /** As {@link #delete} for each user, grouped into scripts as {@link #deliverToEach} groups deliveries. */
    @Override
    public void deleteForEach(List<Long> userIds, long authorId, long blogId, long atMillis) {
        submitForEach(UnreadScript.REMOVE_ONE, UnreadScript.REMOVE_MANY, userIds, authorId,
                removeArgs(authorId, blogId, atMillis, REMOVED));
    }

    private byte[][] removeArgs(long authorId, long blogId, long atMillis, byte[] kind) {
        return new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId), UnreadKeys.decimal(atMillis),
                maxMarksPerUser, MergedMember.of(authorId, blogId), kind};
    }

    /**
     * The same change for each user: {@code one} for a single user, {@code many} for up to
     * {@value UnreadChanges#MAX_USERS_PER_CALL} users of one script group at a time.
     */
    private void submitForEach(UnreadScript one, UnreadScript many, List<Long> userIds, long authorId, byte[][] args) {
        for (List<Long> group : sameScriptGroups(userIds)) {
            for (int from = 0; from < group.size(); from += MAX_USERS_PER_CALL) {
                List<Long> users = group.subList(from, Math.min(group.size(), from + MAX_USERS_PER_CALL));
                byte[][] scriptKeys = new byte[users.size() * USER_KEYS][];
                for (int i = 0; i < users.size(); i++) putUserKeys(scriptKeys, i * USER_KEYS, users.get(i), authorId);
                submit(users.size() == 1 ? one : many, scriptKeys, args);
            }
        }
    }

    /** The users in groups that one script may touch together: all of them, or on Redis Cluster those of one slot. */
    private Collection<List<Long>> sameScriptGroups(List<Long> userIds) {
        if (!cluster || userIds.size() == 1) return List.of(userIds);
        Map<Integer, List<Long>> bySlot = new LinkedHashMap<>();
        for (long user : userIds) bySlot.computeIfAbsent(SlotHash.getSlot(keys.countsBytes(user)), slot -> new ArrayList<>()).add(user);
        return bySlot.values();
    }

    /** The seven keys of the user that deliver.lua and remove.lua take, from {@code at} on. */
    private void putUserKeys(byte[][] into, int at, long userId, long authorId) {
        into[at] = keys.unreadBytes(userId, authorId);
        into[at + 1] = keys.countsBytes(userId);
        into[at + 2] = keys.marksBytes(userId);
        into[at + 3] = keys.floorsBytes(userId);
        into[at + 4] = keys.mergedBytes(userId);
        into[at + 5] = keys.liveBytes(userId);
        into[at + 6] = keys.changesBytes(userId);
    }

    @Override
    public void readAll(long userId, long authorId, long readAtMillis) {
        submit(UnreadScript.READ_ALL,
                new byte[][]{keys.unreadBytes(userId, authorId), keys.countsBytes(userId), keys.floorsBytes(userId), keys.mergedBytes(userId),
                        keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(readAtMillis), MergedMember.authorPrefix(authorId)});
    }

    @Override
    public void allRead(long userId, long readAtMillis) {
        byte[] readAt = UnreadKeys.decimal(readAtMillis);
        submit(allReadStep(userId, readAt, FIRST_CURSOR));
        // floors.all covers notices too: the targeted inbox's unread count comes down with it.
        noticeFloor(userId, readAt, ALL);
    }

    /** One step of an all-read: raises the user's floor and scans the next counts fields from {@code cursor}. */
    private Write allReadStep(long userId, byte[] readAt, byte[] cursor) {
        return new Write(UnreadScript.ALL_READ, new byte[][]{keys.floorsBytes(userId), keys.countsBytes(userId),
                utf8(noticeKeys.audiences(userId)), keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{readAt, cursor, ALL_READ_SCAN}, reply -> allReadNext(userId, readAt, (List<?>) reply));
    }

    /** What a step's reply {cursor, field, ...} calls for: each author's removal, and the next step unless the scan ended. */
    private List<Write> allReadNext(long userId, byte[] readAt, List<?> reply) {
        List<Write> next = new ArrayList<>(reply.size());
        for (Object field : reply.subList(1, reply.size())) {
            long authorId = UnreadKeys.id(new String((byte[]) field, StandardCharsets.US_ASCII));
            if (authorId < 0) continue; // total, seen
            next.add(new Write(UnreadScript.ALL_READ_AUTHOR,
                    new byte[][]{keys.unreadBytes(userId, authorId), keys.countsBytes(userId), keys.floorsBytes(userId), keys.mergedBytes(userId),
                            keys.liveBytes(userId), keys.changesBytes(userId)},
                    new byte[][]{UnreadKeys.decimal(authorId), readAt, MergedMember.authorPrefix(authorId)}, null));
        }
        byte[] cursor = (byte[]) reply.getFirst();
        if (!Arrays.equals(cursor, FIRST_CURSOR)) next.add(allReadStep(userId, readAt, cursor));
        return next;
    }

    @Override
    public void inboxSeen(long userId, long seenAtMillis) {
        submit(UnreadScript.INBOX_SEEN, new byte[][]{keys.floorsBytes(userId), keys.countsBytes(userId), keys.mergedBytes(userId),
                        keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{UnreadKeys.decimal(seenAtMillis)});
    }

    @Override
    public void unfollow(long userId, long authorId, long atMillis) {
        submit(UnreadScript.UNFOLLOW,
                new byte[][]{keys.unreadBytes(userId, authorId), keys.countsBytes(userId), keys.floorsBytes(userId), keys.mergedBytes(userId),
                        keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(atMillis), MergedMember.authorPrefix(authorId)});
    }

    @Override
    public void follow(long userId, long authorId, long atMillis, long unfollowedBeforeMillis) {
        submit(UnreadScript.FOLLOW, new byte[][]{keys.floorsBytes(userId)},
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(atMillis),
                        unfollowedBeforeMillis == NO_UNFOLLOW ? new byte[0] : UnreadKeys.decimal(unfollowedBeforeMillis)});
    }

    @Override
    public void unfollowBefore(long userId, long authorId, long unfollowedAtMillis, long followedAgainAtMillis) {
        submit(UnreadScript.UNFOLLOW_BEFORE,
                new byte[][]{keys.unreadBytes(userId, authorId), keys.countsBytes(userId), keys.floorsBytes(userId), keys.mergedBytes(userId),
                        keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(unfollowedAtMillis), UnreadKeys.decimal(followedAgainAtMillis),
                        MergedMember.authorPrefix(authorId)});
    }

    @Override
    public void noticePublished(String audience, long noticeId, long publishedAtMillis, long expiresAtMillis) {
        submit(UnreadScript.NOTICE_PUBLISH, audienceKeys(audience),
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(publishedAtMillis),
                        expiresAtMillis > 0 ? UnreadKeys.decimal(expiresAtMillis) : new byte[0], maxNoticesPerAudience, now()});
    }

    @Override
    public void noticeWithdrawn(String audience, long noticeId, long withdrawnAtMillis) {
        submit(UnreadScript.NOTICE_WITHDRAW, audienceKeys(audience),
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(withdrawnAtMillis), maxWithdrawn, now()});
    }

    private byte[][] audienceKeys(String audience) {
        return new byte[][]{utf8(noticeKeys.audienceNotices(audience)), utf8(noticeKeys.audienceExpiry(audience)),
                utf8(noticeKeys.audienceWithdrawn(audience)), utf8(noticeKeys.audienceChanges(audience))};
    }

    @Override
    public void audienceJoined(long userId, String audience, long atMillis) {
        membership(userId, audience, JOINED, atMillis);
    }

    @Override
    public void audienceLeft(long userId, String audience, long atMillis) {
        membership(userId, audience, LEFT, atMillis);
    }

    private void membership(long userId, String audience, byte[] kind, long atMillis) {
        submit(UnreadScript.AUDIENCE_MEMBER, new byte[][]{utf8(noticeKeys.audiences(userId)), keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{utf8(audience), kind, UnreadKeys.decimal(atMillis)});
    }

    @Override
    public void noticeSent(long userId, long noticeId, long sentAtMillis) {
        submit(UnreadScript.NOTICE_SEND,
                new byte[][]{utf8(noticeKeys.inbox(userId)), keys.countsBytes(userId), utf8(noticeKeys.noticeReads(userId)),
                        keys.floorsBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(sentAtMillis), maxTargetedNotices});
    }

    @Override
    public void noticeRead(long userId, long noticeId, long readAtMillis) {
        submit(UnreadScript.NOTICE_READ,
                new byte[][]{utf8(noticeKeys.noticeReads(userId)), utf8(noticeKeys.inbox(userId)), keys.countsBytes(userId),
                        keys.floorsBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId), utf8(noticeKeys.audiences(userId))},
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(readAtMillis), maxNoticeReads});
    }

    @Override
    public void noticesAllRead(long userId, long readAtMillis) {
        noticeFloor(userId, UnreadKeys.decimal(readAtMillis), NOTICES);
    }

    /** Raises the floors field ({@code notices} or {@code all}) and counts the inbox's unread again. */
    private void noticeFloor(long userId, byte[] readAt, byte[] field) {
        submit(UnreadScript.NOTICES_ALL_READ,
                new byte[][]{keys.floorsBytes(userId), utf8(noticeKeys.inbox(userId)), utf8(noticeKeys.noticeReads(userId)),
                        keys.countsBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId), utf8(noticeKeys.audiences(userId))},
                new byte[][]{readAt, field});
    }

    /** The clock an expiry is compared with: notices that expired are dropped by the audience's next write. */
    private static byte[] now() {
        return UnreadKeys.decimal(System.currentTimeMillis());
    }

    @Override
    public void flush() {
        connection.stateful().flushCommands();
        unflushed = 0;
    }

    public int pendingCount() {
        return pending.size();
    }

    /**
     * Blocks until Redis acknowledged every submitted script; failed ones are sent again, with backoff, until they
     * succeed. While Redis is unreachable it logs each failed round, and once the writes go through again how long
     * they failed.
     */
    public void awaitAcknowledged() {
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
            // Failed writes are sent again from the first one on, then the steps that applied chained writes call for
            // (they commute with every other write, see all_read_author.lua).
            int applied = firstFailed < 0 ? pending.size() : firstFailed;
            List<Write> toSend = new ArrayList<>();
            for (int i = applied; i < pending.size(); i++) toSend.add(pending.get(i).write());
            for (int i = 0; i < applied; i++) toSend.addAll(nextOf(pending.get(i)));
            pending.clear();
            pendingChanges = 0;
            answeredThrough = 0;
            if (firstFailed < 0) {
                if (retries > 0) {
                    long failedForMs = Duration.ofNanos(System.nanoTime() - failingSince).toMillis();
                    log.atInfo().addKeyValue("failedForMs", failedForMs).addKeyValue("retries", retries)
                            .log("Redis writes succeeded again after {} s and {} retries", "%.1f".formatted(failedForMs / 1000.0), retries);
                    retries = 0;
                }
                toSend.forEach(this::addPending);
                flush();
                continue;
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
     * Sends what is buffered and blocks until the newest writes that wait for Redis's answer make at most
     * {@code unanswered} per-user changes (a script delivering to many users counts each), on whichever node each went
     * to. Should one of the older writes have failed, it is {@link #awaitAcknowledged} instead: every write sent again
     * in order, with backoff, until Redis applied them.
     */
    @Override
    public void awaitUnansweredAtMost(int unanswered) {
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

    /** The writes an applied chained write's reply calls for. */
    private static List<Write> nextOf(PendingWrite pending) {
        return pending.write().next() == null ? List.of() : pending.write().next().apply(pending.result().join());
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

    private void submit(UnreadScript script, byte[][] scriptKeys, byte[][] args) {
        submit(new Write(script, scriptKeys, args, null));
    }

    private void submit(Write write) {
        addPending(write);
        unflushed += write.changes();
        if (unflushed >= FLUSH_EVERY) flush();
        if (pendingChanges >= maxPending) awaitAcknowledged();
    }

    private void addPending(Write write) {
        pending.add(send(write));
        pendingChanges += write.changes();
    }

    private PendingWrite send(Write write) {
        ScriptOutputType output = write.next() == null ? ScriptOutputType.INTEGER : ScriptOutputType.MULTI;
        CompletableFuture<Object> result = redis.evalsha(write.script().sha(), output, write.keys(), write.args()).toCompletableFuture();
        return new PendingWrite(write, result);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
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
