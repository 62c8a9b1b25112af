package io.readmark.e2e;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.e2e.PipelineFixture.WireEvent;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Notices end to end, as any Kafka client with default settings writes them: notice-events and read-events →
 * stream processor (and the fan-out worker for a mass send) → the notice keys in Redis.
 */
class NoticePipelineIT {

    @AutoClose
    private static PipelineFixture pipeline;
    @AutoClose
    private static RedisConnections redis;
    private static RedisClusterCommands<String, String> sync;
    private static NoticeKeys noticeKeys;
    private static UnreadKeys keys;

    @BeforeAll
    static void startPipeline() throws Exception {
        // Three recipients inline at most, so that a send to seven goes through the chunked path.
        pipeline = PipelineFixture.start("notices", Map.of("READMARK_NOTICE_INLINE_RECIPIENTS", "3", "PROCESSOR_FANOUT_CHUNK_SIZE", "2"));
        redis = RedisConnections.connect(pipeline.stack().redisUrl(), Duration.ofSeconds(5), false);
        sync = redis.shared().sync();
        String prefix = pipeline.settings().string("READMARK_REDIS_PREFIX", "rm");
        noticeKeys = new NoticeKeys(prefix);
        keys = new UnreadKeys(prefix);
    }

    private static WireEvent notice(String key, String json) {
        return new WireEvent(pipeline.stack().topics().noticeEvents().name(), key, json);
    }

    private static WireEvent read(long userId, String json) {
        return new WireEvent(pipeline.stack().topics().readEvents().name(), Long.toString(userId), json);
    }

    private static long noticesCount(long userId) {
        String field = sync.hget(keys.h(userId), "notices");
        return field == null ? 0 : Long.parseLong(field);
    }

    @Test
    void shouldStoreABroadcastOnceAndKeepAnEarlierWithdrawalWinning() throws Exception {
        String audience = "staff-" + pipeline.newId();
        long kept = pipeline.newId(), withdrawn = pipeline.newId();
        pipeline.produce(
                notice(audience, """
                        {"type":"NoticeWithdrawn","eventId":"w","noticeId":%d,"audience":"%s","withdrawnAt":"2026-01-01T12:05:00Z"}"""
                        .formatted(withdrawn, audience)),
                notice(audience, """
                        {"type":"NoticePublished","eventId":"p1","noticeId":%d,"audience":"%s","publishedAt":"2026-01-01T12:00:00Z"}"""
                        .formatted(withdrawn, audience)),
                notice(audience, """
                        {"type":"NoticePublished","eventId":"p2","noticeId":"%d","audience":"%s","publishedAt":"2026-01-01T12:01:00Z"}"""
                        .formatted(kept, audience)),
                notice(audience, """
                        {"type":"AudienceJoined","eventId":"j","userId":%d,"audience":"%s","at":"2026-01-01T11:00:00Z"}"""
                        .formatted(kept, audience)));

        PipelineFixture.eventually(() -> assertThat(sync.zrange(noticeKeys.audienceNotices(audience), 0, -1))
                .containsExactly(Long.toString(kept)));
        PipelineFixture.eventually(() -> assertThat(sync.hget(noticeKeys.audiences(kept), audience)).isEqualTo("J1767265200000"));
    }

    @Test
    void shouldCountTargetedNoticesUntilReadWhateverTheOrderAndThroughTheWorkerForAMassSend() throws Exception {
        long alice = pipeline.newId(), bob = pipeline.newId();
        long small = pipeline.newId(), early = pipeline.newId(), mass = pipeline.newId();
        String others = LongStream.range(0, 5).map(i -> pipeline.newId()).mapToObj(Long::toString).collect(Collectors.joining(","));
        pipeline.produce(
                read(alice, """
                        {"type":"NoticeRead","eventId":"r1","userId":%d,"noticeId":%d,"readAt":"2026-01-01T12:00:00Z"}"""
                        .formatted(alice, early)),
                notice(Long.toString(early), """
                        {"type":"NoticeSent","eventId":"s0","noticeId":%d,"recipientIds":[%d],"sentAt":"2026-01-01T11:00:00Z"}"""
                        .formatted(early, alice)),
                notice(Long.toString(small), """
                        {"type":"NoticeSent","eventId":"s1","noticeId":%d,"recipientIds":[%d,%d],"sentAt":"2026-01-01T11:00:00Z"}"""
                        .formatted(small, alice, bob)),
                notice(Long.toString(mass), """
                        {"type":"NoticeSent","eventId":"s2","noticeId":%d,"recipientIds":[%d,%d,%s],"sentAt":"2026-01-01T11:30:00Z"}"""
                        .formatted(mass, alice, bob, others)));

        PipelineFixture.eventually(() -> {
            assertThat(noticesCount(alice)).as("the early read keeps one of three read").isEqualTo(2);
            assertThat(noticesCount(bob)).isEqualTo(2);
            for (String other : others.split(",")) assertThat(noticesCount(Long.parseLong(other))).as("recipient " + other).isEqualTo(1);
        });

        // NoticesAllRead up to between the two sends, then an AllRead after both
        pipeline.produce(read(bob, """
                {"type":"NoticesAllRead","eventId":"nar","userId":%d,"readAt":"2026-01-01T11:10:00Z"}""".formatted(bob)));
        PipelineFixture.eventually(() -> assertThat(noticesCount(bob)).isEqualTo(1));
        pipeline.produce(read(bob, """
                {"type":"AllRead","eventId":"ar","userId":%d,"readAt":"2026-01-01T12:00:00Z"}""".formatted(bob)));
        PipelineFixture.eventually(() -> assertThat(sync.hexists(keys.h(bob), "notices")).isFalse());
        assertThat(sync.zcard(noticeKeys.inbox(bob))).as("read notices stay in the inbox").isEqualTo(2);
    }
}
