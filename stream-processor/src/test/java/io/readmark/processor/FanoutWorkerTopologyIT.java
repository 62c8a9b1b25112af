package io.readmark.processor;

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

import static org.assertj.core.api.Assertions.assertThat;

/** The big-V worker's topology in a TopologyTestDriver, writing to a real Redis. */
class FanoutWorkerTopologyIT {

    private static final Topics TOPICS = Topics.defaults();

    private TopologyFixture fixture;
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> chunks;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void startDriver() throws Exception {
        fixture = new TopologyFixture((writers, meters) ->
                FanoutWorkerTopology.build(TOPICS, writers, new RateLimiter(1_000_000), ProcessorConfig.DEFAULT_FANOUT_BURST,
                        new FanoutProgress(), meters));
        driver = fixture.driver;
        chunks = driver.createInputTopic(TOPICS.fanoutChunks().name(), new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic(TOPICS.deadLetters().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void closeDriver() {
        fixture.close();
    }

    private void send(FanoutChunk chunk) {
        chunks.pipeInput("k".getBytes(StandardCharsets.UTF_8), Topics.CHUNK_SERDE.serialize(null, chunk));
    }

    private long unread(long user) {
        return fixture.unread(user);
    }

    private static FanoutChunk chunk(FanoutChunk.Kind kind, List<Long> followers) {
        return new FanoutChunk("deliver-5001", kind, 7, 5001, 1_767_225_600_000L, 3, 1_767_225_600_000L, followers);
    }

    @Test
    void shouldDeliverToEveryFollowerOfAChunkOnceEvenWhenTheChunkIsRedelivered() {
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(101L, 102L, 103L)));
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(101L, 102L, 103L)));

        assertThat(List.of(unread(101), unread(102), unread(103))).containsOnly(1L);
        assertThat(fixture.metric("deliveries-total")).as("applied deliveries, redelivery included").isEqualTo(6.0);
    }

    @Test
    void shouldRemoveTheBlogFromEveryFollowerOfARemoveChunkAndKeepLateDeliveriesOut() {
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(101L, 102L)));
        send(chunk(FanoutChunk.Kind.REMOVE, List.of(101L, 102L, 103L)));
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(103L)));   // a delivery chunk that lagged behind the delete

        assertThat(List.of(unread(101), unread(102), unread(103))).containsOnly(0L);
    }

    @Test
    void shouldDeadLetterAChunkItCannotRead() {
        chunks.pipeInput("k".getBytes(StandardCharsets.UTF_8), "{\"jobId\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(101L)));

        assertThat(unread(101)).isEqualTo(1);
        var rejected = deadLetters.readRecord();
        assertThat(new String(rejected.headers().lastHeader(DeadLetterHeaders.REASON).value(), StandardCharsets.UTF_8)).isNotBlank();
        assertThat(fixture.meter("readmark.dlq.records", "topic", TOPICS.fanoutChunks().name(), "reason", "field")).isEqualTo(1);
    }

    @Test
    void shouldDeadLetterANullChunkAndAChunkNamingNoUserInsteadOfApplyingIt() {
        chunks.pipeInput("k".getBytes(StandardCharsets.UTF_8), "null".getBytes(StandardCharsets.UTF_8));
        chunks.pipeInput("k".getBytes(StandardCharsets.UTF_8), """
                {"jobId":"deliver-5001","kind":"DELIVER","authorId":7,"blogId":5001,"atMillis":1,"jobFollowers":2,
                 "jobStartedAtMillis":1,"followerIds":[102,-102]}""".getBytes(StandardCharsets.UTF_8));
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(101L)));

        assertThat(unread(101)).isEqualTo(1);
        assertThat(unread(102)).as("no follower of a rejected chunk gets it").isZero();
        assertThat(deadLetters.readRecordsToList())
                .extracting(record -> new String(record.headers().lastHeader(DeadLetterHeaders.CATEGORY).value(), StandardCharsets.UTF_8))
                .containsExactly("malformed", "field");
    }
}
