package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Applies unread changes to Redis without a round trip per change: scripts are pipelined on a dedicated connection,
 * and {@link #awaitAcknowledged()} returns only once Redis confirmed every one of them, retrying failures with
 * backoff. A caller that commits Kafka offsets after it therefore never loses a change. Used by one thread.
 * {@link UnreadScriptCalls} and {@link NoticeScriptCalls} encode each change as a script's KEYS and ARGV;
 * {@link ScriptPipeline} sends them, in order, and keeps each until Redis applied it.
 */
public final class UnreadWriter implements UnreadChanges, AutoCloseable {

    private final UnreadScriptCalls unread;
    private final NoticeScriptCalls notices;
    private final ScriptPipeline pipeline;
    /** {@link ScriptPipeline#submit}, made once: the grouped deliveries hand it each script they build. */
    private final Consumer<ScriptCall> submit;

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
        this(connection, keys, limits, maxPending, deliveriesApplied, writesRetried, 0);
    }

    /**
     * @param waitReplicas how many replicas of each master written to must have the writes before
     *                     {@link #awaitAcknowledged()} returns ({@code WAIT}); 0 waits for none
     */
    public UnreadWriter(RedisConnections.BinaryConnection connection, UnreadKeys keys, UnreadLimits limits, int maxPending,
                        LongConsumer deliveriesApplied, LongConsumer writesRetried, int waitReplicas) {
        this(connection, keys, limits, maxPending, deliveriesApplied, writesRetried, waitReplicas, WriteGuard.NONE);
    }

    /**
     * @param guard told the users of each script call before it is queued, once ({@link WriteGuard#NONE}: nothing
     *              to do); the writer does not close it
     */
    public UnreadWriter(RedisConnections.BinaryConnection connection, UnreadKeys keys, UnreadLimits limits, int maxPending,
                        LongConsumer deliveriesApplied, LongConsumer writesRetried, int waitReplicas, WriteGuard guard) {
        this.notices = new NoticeScriptCalls(keys, limits.notices());
        this.unread = new UnreadScriptCalls(keys, limits, connection.stateful() instanceof StatefulRedisClusterConnection);
        this.pipeline = new ScriptPipeline(connection, maxPending, deliveriesApplied, writesRetried, waitReplicas, guard);
        this.submit = pipeline::submit;
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
        unread.deliverToEach(userIds, authorId, blogId, publishedAtMillis, submit);
    }

    @Override
    public void remove(long userId, long authorId, long blogId, long atMillis) {
        unread.remove(userId, authorId, blogId, atMillis, submit);
    }

    @Override
    public void delete(long userId, long authorId, long blogId, long atMillis) {
        deleteForEach(List.of(userId), authorId, blogId, atMillis);
    }

    /** As {@link #delete} for each user, grouped into scripts as {@link #deliverToEach} groups deliveries. */
    @Override
    public void deleteForEach(List<Long> userIds, long authorId, long blogId, long atMillis) {
        unread.deleteForEach(userIds, authorId, blogId, atMillis, submit);
    }

    @Override
    public void readAll(long userId, long authorId, long readAtMillis) {
        pipeline.submit(unread.readAll(userId, authorId, readAtMillis));
    }

    @Override
    public void allRead(long userId, long readAtMillis) {
        pipeline.submit(unread.allRead(userId, readAtMillis));
        // floors.all covers notices too: the targeted inbox's unread count comes down with it.
        pipeline.submit(notices.allRead(userId, readAtMillis));
    }

    @Override
    public void inboxSeen(long userId, long seenAtMillis) {
        pipeline.submit(unread.inboxSeen(userId, seenAtMillis));
    }

    @Override
    public void unfollow(long userId, long authorId, long atMillis) {
        pipeline.submit(unread.unfollow(userId, authorId, atMillis));
    }

    @Override
    public void follow(long userId, long authorId, long atMillis, long unfollowedBeforeMillis) {
        pipeline.submit(unread.follow(userId, authorId, atMillis, unfollowedBeforeMillis));
    }

    @Override
    public void unfollowBefore(long userId, long authorId, long unfollowedAtMillis, long followedAgainAtMillis) {
        pipeline.submit(unread.unfollowBefore(userId, authorId, unfollowedAtMillis, followedAgainAtMillis));
    }

    @Override
    public void noticePublished(String audience, long noticeId, long publishedAtMillis, long expiresAtMillis) {
        pipeline.submit(notices.noticePublished(audience, noticeId, publishedAtMillis, expiresAtMillis));
    }

    @Override
    public void noticeWithdrawn(String audience, long noticeId, long withdrawnAtMillis) {
        pipeline.submit(notices.noticeWithdrawn(audience, noticeId, withdrawnAtMillis));
    }

    @Override
    public void audienceJoined(long userId, String audience, long atMillis) {
        pipeline.submit(notices.audienceJoined(userId, audience, atMillis));
    }

    @Override
    public void audienceLeft(long userId, String audience, long atMillis) {
        pipeline.submit(notices.audienceLeft(userId, audience, atMillis));
    }

    @Override
    public void noticeSent(long userId, long noticeId, long sentAtMillis) {
        pipeline.submit(notices.noticeSent(userId, noticeId, sentAtMillis));
    }

    @Override
    public void noticeRead(long userId, long noticeId, long readAtMillis) {
        pipeline.submit(notices.noticeRead(userId, noticeId, readAtMillis));
    }

    @Override
    public void noticesAllRead(long userId, long readAtMillis) {
        pipeline.submit(notices.noticesAllRead(userId, readAtMillis));
    }

    @Override
    public void flush() {
        pipeline.flush();
    }

    public int pendingCount() {
        return pipeline.pendingCount();
    }

    /**
     * Blocks until Redis acknowledged every submitted script, and the replicas asked for have them; failed ones are
     * sent again, with backoff, until they succeed. While Redis is unreachable it logs each failed round, and once the writes go through again how long
     * they failed.
     */
    public void awaitAcknowledged() {
        pipeline.awaitAcknowledged();
    }

    /**
     * Sends what is buffered and blocks until the newest writes that wait for Redis's answer make at most
     * {@code unanswered} per-user changes (a script delivering to many users counts each), on whichever node each went
     * to. Should one of the older writes have failed, it is {@link #awaitAcknowledged} instead: every write sent again
     * in order, with backoff, until Redis applied them.
     */
    @Override
    public void awaitUnansweredAtMost(int unanswered) {
        pipeline.awaitUnansweredAtMost(unanswered);
    }

    @Override
    public void close() {
        pipeline.close();
    }
}
