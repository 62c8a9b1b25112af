package io.readmark.e2e;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.common.console.ProgressLine;
import io.readmark.e2e.PipelineFixture.Counts;
import io.readmark.e2e.PipelineFixture.WireEvent;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.processor.rebuild.RebuildSummary;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import static io.readmark.e2e.PipelineFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code readmark rebuild} on a real pipeline: a mixed workload (follows, an unfollow and a re-follow, publishes
 * including a big-V author fanned out in chunks by the worker, reads, a read-all, a read before its delivery, deletes
 * including a big-V one, duplicates, trimming at the per-author cap, bad records) is applied by the live processor;
 * every key under the prefix is saved, the prefix wiped, and the rebuild — with the live processor still running,
 * and new events arriving meanwhile — must bring back exactly the saved keys: unread sets with their scores, counts,
 * read marks with their times and floors. Bounds are lowered so that trimming and the read-mark bound matter: a
 * replay that let a heavy reader's reads run ahead of the deliveries would bring read posts back.
 */
class RebuildIT {

    private static final Instant NOON = Instant.parse("2026-01-01T12:00:00Z");
    private static PipelineFixture pipeline;
    private static RedisConnections redis;
    private static Admin admin;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = PipelineFixture.start("rebuild", Map.of(
                "PROCESSOR_BIGV_THRESHOLD", "4",
                "PROCESSOR_FANOUT_CHUNK_SIZE", "2",
                "READMARK_MAX_UNREAD_PER_AUTHOR", "6",
                "READMARK_MAX_READ_MARKS_PER_USER", "4"));
        redis = RedisConnections.connect(pipeline.stack().redisUrl(), Duration.ofSeconds(5), false);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.stack().kafkaBootstrapServers()));
    }

    @AfterAll
    static void stopPipeline() {
        if (admin != null) admin.close();
        if (redis != null) redis.close();
        if (pipeline != null) pipeline.close();
    }

    private static Instant minutes(long m) {
        return NOON.plusSeconds(60 * m);
    }

    @Test
    void shouldBringBackExactlyTheStateThatWasLost() throws Exception {
        // Given a workload the live pipeline applied, stage by stage
        long a1 = id(), a2 = id(), a3 = id(), a4 = id();
        long u1 = id(), u2 = id(), u3 = id(), u4 = id(), u5 = id(), u6 = id();
        long[] p = ids(7), q = ids(10), b = ids(4), r = ids(3);
        String blogTopic = pipeline.stack().topics().blogEvents().name();
        String readTopic = pipeline.stack().topics().readEvents().name();
        String followTopic = pipeline.stack().topics().followEvents().name();
        String noticeTopic = pipeline.stack().topics().noticeEvents().name();

        // follows: a3 reaches the big-V threshold (4) with six followers; one duplicate; one record under a wrong key
        WireEvent follow = pipeline.followed(u1, a1);
        pipeline.produce(follow, follow, pipeline.followed(u2, a1), pipeline.followed(u3, a1), pipeline.followed(u4, a2),
                pipeline.followed(u5, a4), pipeline.followed(u1, a4),
                pipeline.followed(u1, a3), pipeline.followed(u2, a3), pipeline.followed(u3, a3),
                pipeline.followed(u4, a3), pipeline.followed(u5, a3), pipeline.followed(u6, a3),
                new WireEvent(followTopic, "999", pipeline.followed(u2, a1).json()));

        // publishes: a2 publishes more than the cap (6) to u4, who never reads a2; a3's go through the fan-out worker
        List<WireEvent> publishes = new ArrayList<>();
        for (int i = 1; i <= 5; i++) publishes.add(pipeline.published(p[i], a1, minutes(i)));
        for (int i = 1; i <= 8; i++) publishes.add(pipeline.published(q[i], a2, minutes(i)));
        publishes.add(pipeline.published(b[1], a3, minutes(10)));
        publishes.add(pipeline.published(b[2], a3, minutes(11)));
        publishes.add(pipeline.published(r[1], a4, minutes(12)));
        publishes.add(publishes.getFirst()); // a redelivered publish
        publishes.add(pipeline.notJson(a1));
        publishes.add(new WireEvent(blogTopic, Long.toString(u1), pipeline.read(u1, p[1], a1, minutes(1)).json()));
        pipeline.produce(publishes.toArray(WireEvent[]::new));
        pipeline.awaitCounts(u1, c -> assertThat(c).isEqualTo(new Counts(8, Map.of(a1, 5L, a3, 2L, a4, 1L))));
        pipeline.awaitCounts(u4, c -> assertThat(c).isEqualTo(new Counts(8, Map.of(a2, 6L, a3, 2L))));
        for (long user : new long[]{u2, u3, u5, u6}) {
            pipeline.awaitCounts(user, c -> assertThat(c.byAuthor()).containsEntry(a3, 2L));
        }

        // reads and deletes: u1 reads six posts (more than the 4 marks kept), u2 reads a1 up to p3, u3's read arrives
        // twice, u6 reads b3 before it is published; a1 deletes p3, the big-V a3 deletes b1, u5 unfollows a4
        WireEvent u3Read = pipeline.read(u3, p[1], a1, minutes(26));
        pipeline.produce(pipeline.read(u1, p[1], a1, minutes(20)), pipeline.read(u1, p[2], a1, minutes(21)),
                pipeline.read(u1, p[4], a1, minutes(22)), pipeline.read(u1, p[5], a1, minutes(23)),
                pipeline.read(u1, b[2], a3, minutes(24)), pipeline.read(u1, r[1], a4, minutes(25)),
                pipeline.readAll(u2, a1, minutes(3)), u3Read, u3Read,
                pipeline.read(u6, b[3], a3, minutes(32)),
                new WireEvent(readTopic, Long.toString(u2), "[not an event]"),
                // dated far past its record's timestamp: refused live and on replay, or u2's floor would hide all
                new WireEvent(readTopic, Long.toString(u2), """
                        {"type":"AllRead","eventId":"far-ahead","userId":%d,"readAt":"9999-12-31T23:59:59Z"}""".formatted(u2)),
                pipeline.deleted(p[3], a1, minutes(30)), pipeline.deleted(b[1], a3, minutes(31)),
                pipeline.unfollowed(u5, a4, minutes(33)));
        pipeline.awaitCounts(u1, c -> assertThat(c).isEqualTo(new Counts(0, Map.of())));
        pipeline.awaitCounts(u2, c -> assertThat(c).isEqualTo(new Counts(3, Map.of(a1, 2L, a3, 1L))));
        pipeline.awaitCounts(u3, c -> assertThat(c).isEqualTo(new Counts(4, Map.of(a1, 3L, a3, 1L))));
        for (long user : new long[]{u4, u5, u6}) {
            pipeline.awaitCounts(user, c -> assertThat(c.byAuthor()).containsEntry(a3, 1L).doesNotContainKey(a4));
        }

        // more publishes after the reads, a re-follow, and a read of a post just published
        pipeline.produce(pipeline.published(p[6], a1, minutes(40)), pipeline.published(b[3], a3, minutes(41)),
                pipeline.followed(u5, a4, minutes(39)), pipeline.published(r[2], a4, minutes(42)), pipeline.published(q[9], a2, minutes(43)),
                pipeline.read(u1, p[6], a1, minutes(44)));
        pipeline.awaitCounts(u1, c -> assertThat(c).isEqualTo(new Counts(2, Map.of(a3, 1L, a4, 1L))));
        pipeline.awaitCounts(u2, c -> assertThat(c).isEqualTo(new Counts(5, Map.of(a1, 3L, a3, 2L))));
        pipeline.awaitCounts(u3, c -> assertThat(c).isEqualTo(new Counts(6, Map.of(a1, 4L, a3, 2L))));
        pipeline.awaitCounts(u4, c -> assertThat(c).isEqualTo(new Counts(8, Map.of(a2, 6L, a3, 2L))));
        pipeline.awaitCounts(u5, c -> assertThat(c).isEqualTo(new Counts(3, Map.of(a3, 2L, a4, 1L))));
        pipeline.awaitCounts(u6, c -> assertThat(c).isEqualTo(new Counts(1, Map.of(a3, 1L))));
        assertThat(pipeline.unread(u4, a2)).as("the newest six of a2's nine").containsExactly(q[9], q[8], q[7], q[6], q[5], q[4]);
        assertThat(pipeline.unread(u6, a3)).as("read before it was published").containsExactly(b[2]);

        // notices: a broadcast withdrawn before its publish arrives and one kept, a join, targeted notices to u1 and u2
        // with a read before its send, a notices-all-read, and a bad notice event
        String audience = "rebuild-" + id();
        long n1 = id(), n2 = id(), n3 = id(), n4 = id();
        pipeline.produce(
                new WireEvent(noticeTopic, audience, """
                        {"type":"NoticeWithdrawn","eventId":"nw","noticeId":%d,"audience":"%s","withdrawnAt":"2026-01-01T13:00:00Z"}"""
                        .formatted(n1, audience)),
                new WireEvent(noticeTopic, audience, """
                        {"type":"NoticePublished","eventId":"np1","noticeId":%d,"audience":"%s","publishedAt":"2026-01-01T12:50:00Z"}"""
                        .formatted(n1, audience)),
                new WireEvent(noticeTopic, audience, """
                        {"type":"NoticePublished","eventId":"np2","noticeId":%d,"audience":"%s","publishedAt":"2026-01-01T12:51:00Z"}"""
                        .formatted(n2, audience)),
                new WireEvent(noticeTopic, audience, """
                        {"type":"AudienceJoined","eventId":"aj","userId":%d,"audience":"%s","at":"2026-01-01T12:00:00Z"}"""
                        .formatted(u1, audience)),
                new WireEvent(noticeTopic, "everyone", """
                        {"type":"AudienceJoined","eventId":"bad","userId":%d,"audience":"everyone","at":"2026-01-01T12:00:00Z"}"""
                        .formatted(u1)),
                new WireEvent(readTopic, Long.toString(u1), """
                        {"type":"NoticeRead","eventId":"nr","userId":%d,"noticeId":%d,"readAt":"2026-01-01T12:55:00Z"}"""
                        .formatted(u1, n3)),
                new WireEvent(noticeTopic, Long.toString(n3), """
                        {"type":"NoticeSent","eventId":"ns3","noticeId":%d,"recipientIds":[%d,%d],"sentAt":"2026-01-01T12:52:00Z"}"""
                        .formatted(n3, u1, u2)),
                new WireEvent(noticeTopic, Long.toString(n4), """
                        {"type":"NoticeSent","eventId":"ns4","noticeId":%d,"recipientIds":[%d,%d],"sentAt":"2026-01-01T12:53:00Z"}"""
                        .formatted(n4, u1, u2)),
                new WireEvent(readTopic, Long.toString(u2), """
                        {"type":"NoticesAllRead","eventId":"nar","userId":%d,"readAt":"2026-01-01T12:52:30Z"}""".formatted(u2)));
        RedisClusterCommands<String, String> notices = redis.shared().sync();
        eventually(() -> {
            assertThat(notices.hget(prefix() + ":{u:" + u1 + "}:h", "notices")).isEqualTo("1");
            assertThat(notices.hget(prefix() + ":{u:" + u2 + "}:h", "notices")).isEqualTo("1");
            assertThat(notices.zrange(prefix() + ":{a:" + audience + "}:notices", 0, -1)).containsExactly(Long.toString(n2));
        });

        // ... and every key under the prefix saved, then the prefix wiped: Redis lost
        Map<String, Object> before = snapshot();
        assertThat(before.keySet()).as("entries and tombstones (z), records and counts (h), and floors were written")
                .anyMatch(k -> k.endsWith(":z")).anyMatch(k -> k.endsWith(":h")).anyMatch(k -> k.endsWith(":floors"));
        Map<String, Long> dlqAndFanout = endOffsets(pipeline.stack().topics().deadLetters().name(),
                pipeline.stack().topics().fanoutChunks().name());
        wipePrefix();
        pipeline.awaitCounts(u2, c -> assertThat(c).isEqualTo(new Counts(0, Map.of())));

        // When the rebuild runs while the live processor keeps running, and new events arrive meanwhile
        ProcessorConfig config = ProcessorConfig.from(pipeline.settings());
        Rebuild rebuild = new Rebuild(config, Instant.now());
        List<long[]> progress = new ArrayList<>();
        List<String> passes = new ArrayList<>();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        ProgressLine line = new ProgressLine(new PrintStream(stderr, true, StandardCharsets.UTF_8), false, "rebuild",
                "records", Duration.ZERO, System::nanoTime);
        CompletableFuture<RebuildSummary> running = CompletableFuture.supplyAsync(() -> {
            try {
                return rebuild.run((applied, total, pass) -> {
                    synchronized (progress) {
                        progress.add(new long[]{applied, total});
                        if (passes.isEmpty() || !passes.getLast().equals(pass)) passes.add(pass);
                    }
                    line.update(applied, total, pass);
                });
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long a5 = id(), u7 = id(), s1 = id();
        pipeline.produce(pipeline.followed(u7, a5), pipeline.published(s1, a5, minutes(50)));
        RebuildSummary summary = running.join();
        line.close();

        // Then every saved key is back, exactly
        pipeline.awaitUnread(u7, a5, s1);
        Map<String, Object> after = snapshot();
        after.keySet().removeIf(key -> key.contains("{u:" + u7 + "}"));
        assertThat(new TreeMap<>(after)).isEqualTo(new TreeMap<>(before));

        // ... every retained record was replayed, the bad ones skipped and not dead-lettered again, no chunk sent
        // (the two records produced during the rebuild count if they were there when it captured the end offsets)
        long retained = endOffsets(followTopic, blogTopic, noticeTopic, readTopic).values().stream().mapToLong(Long::longValue).sum();
        assertThat(summary.records()).isBetween(retained - 2, retained);
        assertThat(summary.skipped()).isEqualTo(Map.of(followTopic + " key", 1L, blogTopic + " malformed", 1L,
                blogTopic + " type", 1L, readTopic + " malformed", 1L, readTopic + " field", 1L, noticeTopic + " field", 1L));
        assertThat(summary.skippedExamples()).hasSize(5).allMatch(example -> example.matches(".+-\\d+@\\d+: .+"));
        assertThat(endOffsets(pipeline.stack().topics().deadLetters().name(), pipeline.stack().topics().fanoutChunks().name()))
                .as("the dead-letter and fan-out topics").isEqualTo(dlqAndFanout);

        // ... and the temporary applications left nothing behind: no group, no internal topic, no local state
        List<String> groups = admin.listGroups().all().get().stream().map(GroupListing::groupId).toList();
        assertThat(groups).doesNotContainAnyElementsOf(summary.applicationIds()).contains(config.applicationId());
        assertThat(admin.listTopics().names().get()).noneMatch(topic -> topic.startsWith(summary.applicationIds().getFirst()));
        assertThat(summary.applicationIds()).allSatisfy(id -> assertThat(config.stateDir().resolve(id)).doesNotExist());

        // ... and the progress went up to the total, first over follows and posts, then notices, then reads
        assertThat(passes).containsExactly(Rebuild.AUTHOR_PASS, Rebuild.NOTICE_PASS, Rebuild.READ_PASS);
        assertThat(progress).isSortedAccordingTo((x, y) -> Long.compare(x[0], y[0]));
        assertThat(progress.getLast()).containsExactly(summary.records(), summary.records());
        String printed = stderr.toString(StandardCharsets.UTF_8);
        assertThat(printed).doesNotContain("\r").contains("rebuild [").contains("records")
                .contains(Rebuild.AUTHOR_PASS).contains(Rebuild.READ_PASS);
        assertThat(printed.lines().toList().getLast())
                .contains("100%", "%,d/%,d records".formatted(summary.records(), summary.records()), "ETA 0:00:00");
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private static long id() {
        return pipeline.newId();
    }

    /** n fresh ids at indexes 1..n (index 0 unused), so post i of a scenario is {@code p[i]}. */
    private static long[] ids(int n) {
        long[] ids = new long[n + 1];
        for (int i = 1; i <= n; i++) ids[i] = id();
        return ids;
    }

    private String prefix() {
        return pipeline.settings().string("READMARK_REDIS_PREFIX", "rm");
    }

    /** Every key under the pipeline's prefix with its content: sorted sets as member → score, hashes as they are. */
    private Map<String, Object> snapshot() {
        RedisClusterCommands<String, String> sync = redis.shared().sync();
        Map<String, Object> keys = new HashMap<>();
        redis.scan(prefix() + ":*", 1_000, batch -> batch.forEach(key -> {
            switch (sync.type(key)) {
                case "zset" -> {
                    Map<String, Double> entries = new TreeMap<>();
                    for (ScoredValue<String> entry : sync.zrangeWithScores(key, 0, -1)) entries.put(entry.getValue(), entry.getScore());
                    keys.put(key, entries);
                }
                case "hash" -> {
                    Map<String, String> fields = new TreeMap<>(sync.hgetall(key));
                    // The read marks' stamp is new with every change: whether there is one is state, its value not.
                    fields.computeIfPresent(NoticeKeys.READS_STAMP, (field, stamp) -> "stamped");
                    // The state version counts the changes made, which a replay in passes makes otherwise.
                    if (key.endsWith(":h")) fields.remove("v");
                    if (!fields.isEmpty()) keys.put(key, fields);
                }
                default -> keys.put(key, "unexpected type " + sync.type(key));
            }
        }));
        return keys;
    }

    private void wipePrefix() {
        RedisClusterCommands<String, String> sync = redis.shared().sync();
        redis.scan(prefix() + ":*", 1_000, batch -> sync.del(batch.toArray(String[]::new)));
        eventually(() -> assertThat(snapshot()).isEmpty());
    }

    /** Topic → sum of its partitions' end offsets. */
    private static Map<String, Long> endOffsets(String... topics) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicDescription topic : admin.describeTopics(List.of(topics)).allTopicNames().get().values()) {
            topic.partitions().forEach(p -> latest.put(new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<String, Long> ends = new TreeMap<>();
        admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.merge(tp.topic(), info.offset(), Long::sum));
        return ends;
    }
}
