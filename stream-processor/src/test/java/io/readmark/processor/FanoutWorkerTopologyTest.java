package io.readmark.processor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.readmark.processor.fanout.FanoutProgress;
import io.readmark.processor.fanout.FanoutWorkerTopology;
import io.readmark.processor.fanout.RateLimiter;
import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.FanoutChunk;
import io.readmark.schemas.Topics;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.readmark.processor.RecordingChanges.await;
import static io.readmark.processor.RecordingChanges.deliver;
import static io.readmark.processor.RecordingChanges.remove;
import static org.assertj.core.api.Assertions.assertThat;

/** The big-V worker's topology in a TopologyTestDriver, its unread writes recorded in order: no Redis, no broker. */
class FanoutWorkerTopologyTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final String AT = "2026-01-01T00:00:00Z";
    private static final long AT_MILLIS = 1_767_225_600_000L;

    private final RecordingChanges writes = new RecordingChanges();
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> chunks;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void startDriver() {
        driver = TestDrivers.start(FanoutWorkerTopology.build(TOPICS, writes, new RateLimiter(1_000_000), 2, new FanoutProgress(),
                new ProcessorMeters(new SimpleMeterRegistry())));
        chunks = driver.createInputTopic(TOPICS.fanoutChunks().name(), new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic(TOPICS.deadLetters().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    private void send(FanoutChunk.Kind kind, List<Long> followers) {
        send(Topics.CHUNK_SERDE.serialize(null, new FanoutChunk("deliver-5001", kind, 7, 5001, AT_MILLIS, 3, AT_MILLIS, followers)));
    }

    private void send(byte[] value) {
        chunks.pipeInput("k".getBytes(StandardCharsets.UTF_8), value);
    }

    @Test
    void shouldDeliverToEveryFollowerOfADeliverChunkInItsOrderABurstAtATime() {
        send(FanoutChunk.Kind.DELIVER, List.of(103L, 101L, 102L, 104L, 105L));

        // Bursts of 2; after each, every earlier burst must be answered: at most two bursts wait in Redis.
        assertThat(writes.calls()).containsExactly(deliver(103, 7, 5001, AT), deliver(101, 7, 5001, AT), await(2),
                deliver(102, 7, 5001, AT), deliver(104, 7, 5001, AT), await(2), deliver(105, 7, 5001, AT), await(1));
        assertThat(writes.deliveryGroups()).as("a burst's deliveries in one call").containsExactly(2, 2, 1);
        assertThat(driver.metrics().entrySet()).filteredOn(metric -> metric.getKey().name().equals("deliveries-total"))
                .extracting(metric -> ((Number) metric.getValue().metricValue()).doubleValue()).containsExactly(5.0);
    }

    @Test
    void shouldRemoveFromEveryFollowerOfARemoveChunk() {
        send(FanoutChunk.Kind.REMOVE, List.of(101L, 102L));

        assertThat(writes.writes()).containsExactly(remove(101, 7, 5001, AT), remove(102, 7, 5001, AT));
    }

    @Test
    void shouldSendATargetedNoticeToEveryRecipientOfANoticeChunk() {
        send(Topics.CHUNK_SERDE.serialize(null, new FanoutChunk("notice-502", FanoutChunk.Kind.NOTICE, 0, 502, AT_MILLIS, 2,
                AT_MILLIS, List.of(101L, 102L))));

        assertThat(writes.writes()).containsExactly(RecordingChanges.noticeSent(101, 502, AT), RecordingChanges.noticeSent(102, 502, AT));
    }

    @Test
    void shouldDeadLetterChunksItCannotReadWithoutWritingAndKeepGoing() {
        send("{\"jobId\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        send("null".getBytes(StandardCharsets.UTF_8));
        send("""
                {"jobId":"deliver-5001","kind":"DELIVER","authorId":7,"blogId":5001,"atMillis":1,"jobFollowers":2,
                 "jobStartedAtMillis":1,"followerIds":[102,-102]}""".getBytes(StandardCharsets.UTF_8));
        send(FanoutChunk.Kind.DELIVER, List.of(101L));

        assertThat(writes.writes()).as("no follower of a rejected chunk gets it").containsExactly(deliver(101, 7, 5001, AT));
        assertThat(deadLetters.readRecordsToList())
                .extracting(record -> new String(record.headers().lastHeader(DeadLetterHeaders.CATEGORY).value(), StandardCharsets.UTF_8))
                .containsExactly("field", "malformed", "field");
    }
}
