package io.readmark.processor;

import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.FanoutChunk;
import io.readmark.schemas.Topics;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;
import io.readmark.store.UnreadLimits;
import io.readmark.store.UnreadReader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The big-V worker's topology in a TopologyTestDriver, writing to a real Redis. */
class FanoutWorkerTopologyIT {

    private static final Topics TOPICS = Topics.defaults();
    private static RedisConnections redis;

    private UnreadKeys keys;
    private ThreadWriters writers;
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> chunks;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeAll
    static void connect() {
        redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false);
    }

    @AfterAll
    static void disconnect() {
        redis.close();
    }

    @BeforeEach
    void startDriver() throws Exception {
        keys = new UnreadKeys("worker-" + UUID.randomUUID());
        writers = new ThreadWriters(redis, keys, new UnreadLimits(1000, 1000), 1000);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "worker-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("worker-test").toString());
        driver = new TopologyTestDriver(FanoutWorkerTopology.build(TOPICS, writers, new RateLimiter(1_000_000), new FanoutProgress()), props);
        chunks = driver.createInputTopic(TOPICS.fanoutChunks().name(), new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic(TOPICS.deadLetters().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void closeDriver() {
        driver.close();
        writers.close();
    }

    private void send(FanoutChunk chunk) {
        chunks.pipeInput("k".getBytes(StandardCharsets.UTF_8), Topics.CHUNK_SERDE.serialize(null, chunk));
    }

    private long unread(long user) {
        writers.awaitCurrentThread();
        return new UnreadReader(redis.shared(), keys).counts(user).total();
    }

    private static FanoutChunk chunk(FanoutChunk.Kind kind, List<Long> followers) {
        return new FanoutChunk("deliver-5001", kind, 7, 5001, 1_767_225_600_000L, 3, 1_767_225_600_000L, followers);
    }

    @Test
    void shouldDeliverToEveryFollowerOfAChunkOnceEvenWhenTheChunkIsRedelivered() {
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(101L, 102L, 103L)));
        send(chunk(FanoutChunk.Kind.DELIVER, List.of(101L, 102L, 103L)));

        assertThat(List.of(unread(101), unread(102), unread(103))).containsOnly(1L);
        assertThat(metric("deliveries-total")).as("applied deliveries, redelivery included").isEqualTo(6.0);
    }

    private double metric(String name) {
        return driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name) && e.getKey().group().contains("readmark-fanout"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
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
    }
}
