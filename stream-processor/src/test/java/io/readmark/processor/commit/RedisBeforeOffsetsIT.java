package io.readmark.processor.commit;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadReader;
import io.readmark.store.unread.UnreadWriter;
import io.readmark.store.unread.UnreadChanges;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No input offset is committed before Redis acknowledged the writes of the records before it, whatever makes Kafka
 * Streams commit: the commit interval, a rebalance that takes partitions away, a shutdown. Each test holds Redis'
 * writes back (a private Redis under {@code CLIENT PAUSE WRITE}) while a real Kafka Streams application processes
 * records and tries to commit, and checks that no offset moves until Redis is let go.
 */
class RedisBeforeOffsetsIT {

    private static final Duration HELD = Duration.ofSeconds(2);
    private static final Duration SOON = Duration.ofSeconds(60);
    private static final long NEVER_BY_INTERVAL_MS = Duration.ofHours(1).toMillis();
    private static final long AUTHOR = 7;
    private static final int RECORDS_PER_PARTITION = 200;
    private static final long T0 = 1_767_225_600_000L;
    /** One record per partition: user = partition, blog = offset. */
    private static final BiConsumer<UnreadChanges, RecordMetadata> DELIVER_ONE =
            (writes, source) -> writes.deliver(user(source.partition()), AUTHOR, source.offset() + 1, T0 + source.offset());

    private final String kafka = TestInfrastructure.shared().kafkaBootstrapServers();
    private final String topic = "redis-before-offsets-" + UUID.randomUUID();
    private final String applicationId = "redis-before-offsets-" + UUID.randomUUID();
    private final UnreadKeys keys = new UnreadKeys("before-offsets");
    private final AtomicLong processed = new AtomicLong();
    private final List<KafkaStreams> apps = new ArrayList<>();
    @TempDir
    private Path stateDirs;
    private EmbeddedRedis redisServer;
    private RedisConnections redis;
    private WriterPerThread writers;
    private Admin admin;

    @BeforeEach
    void start() {
        KafkaTopics.createTopics(kafka, Map.of(topic, 2));
        redisServer = EmbeddedRedis.start(0);
        // Longer than Redis is held back, so held writes wait instead of timing out and being retried.
        redis = RedisConnections.connect(redisServer.url(), Duration.ofSeconds(30), false);
        writers = new WriterPerThread(redis, keys, new UnreadLimits(5_000, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 100), 100_000, applied -> { });
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka));
    }

    @AfterEach
    void stop() {
        letRedisGo();
        apps.forEach(app -> app.close(Duration.ofSeconds(30)));
        writers.close();
        redis.close();
        redisServer.close();
        admin.close();
    }

    @Test
    void shouldCommitOnTheIntervalOnlyAfterRedisAcknowledged() {
        // Given an application committing every 100 ms that processed records Redis has not acknowledged
        KafkaStreams app = startApp(100);
        warmUp();
        await().atMost(SOON).until(() -> committedTotal() == 2);
        holdRedisBack();
        produceToBothPartitions();
        // (the first commit attempt blocks the stream thread, so not every record may be processed meanwhile)
        await().atMost(SOON).until(() -> processed.get() > 2);

        // Then no offset moves while Redis holds the writes back, though the interval passes many times
        await("no offset ahead of Redis").during(HELD).atMost(HELD.plusSeconds(5)).until(() -> committedTotal() == 2);

        // And once Redis acknowledged, the offsets follow
        letRedisGo();
        await().atMost(SOON).until(() -> committedTotal() == 2 + 2L * RECORDS_PER_PARTITION);
        assertEverythingInRedis();
        assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }

    @Test
    void shouldCommitOnShutdownOnlyAfterRedisAcknowledged() throws Exception {
        // Given an application that never commits on the interval, with processed records Redis has not acknowledged
        KafkaStreams app = startApp(NEVER_BY_INTERVAL_MS);
        warmUp();
        holdRedisBack();
        produceToBothPartitions();
        await().atMost(SOON).until(() -> processed.get() == 2 + 2L * RECORDS_PER_PARTITION);

        // When it shuts down
        CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(() -> app.close(SOON));

        // Then its final commit waits for Redis
        await("no offset ahead of Redis").during(HELD).atMost(HELD.plusSeconds(5))
                .until(() -> committedTotal() == 0 && !closed.isDone());
        letRedisGo();
        assertThat(closed).succeedsWithin(SOON).isEqualTo(true);
        assertThat(committedTotal()).isEqualTo(2 + 2L * RECORDS_PER_PARTITION);
        assertEverythingInRedis();
    }

    @Test
    void shouldCommitAnAllReadOnlyAfterEveryStepItCalledForWasApplied() throws Exception {
        // Given a user with unread from many more authors than one all-read step scans
        long user = 5_000;
        try (UnreadWriter seed = new UnreadWriter(redis.openBinary(), keys, new UnreadLimits(5, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 5), 10_000)) {
            for (long author = 1; author <= 2_000; author++) seed.deliver(user, author, author, T0);
            seed.awaitAcknowledged();
        }
        // and an application that turns each record into an all-read of that user and never commits on the interval
        KafkaStreams app = startApp(NEVER_BY_INTERVAL_MS, true, (writes, source) -> writes.allRead(user, T0));
        produceToBothPartitions(1);
        await().atMost(SOON).until(() -> processed.get() == 2);

        // When it shuts down
        assertThat(app.close(SOON)).isTrue();

        // Then the offsets were committed, and only after the steps sent once Redis answered the first had been applied
        assertThat(committedTotal()).isEqualTo(2);
        assertThat(new UnreadReader(redis.shared(), keys).counts(user).total()).isZero();
    }

    @Test
    void shouldCommitOnRebalanceOnlyAfterRedisAcknowledged() {
        // Given an instance that owns both partitions, never commits on the interval, and processed records Redis
        // has not acknowledged
        KafkaStreams first = startApp(NEVER_BY_INTERVAL_MS);
        warmUp();
        holdRedisBack();
        produceToBothPartitions();
        await().atMost(SOON).until(() -> processed.get() == 2 + 2L * RECORDS_PER_PARTITION);

        // When a second instance joins and a partition is taken away from the first
        startApp(NEVER_BY_INTERVAL_MS, false);
        // (its thread revokes partitions before it takes any: REBALANCING on the first instance is that revocation)
        await("the first instance rebalances").atMost(SOON).until(() -> first.state() == KafkaStreams.State.REBALANCING);

        // Then its revocation commit waits for Redis
        await("no offset ahead of Redis").during(HELD).atMost(HELD.plusSeconds(5)).until(() -> committedTotal() == 0);
        letRedisGo();
        await().atMost(SOON).until(() -> committedTotal() == 2 + 2L * RECORDS_PER_PARTITION);
        assertEverythingInRedis();
    }

    private KafkaStreams startApp(long commitIntervalMs) {
        return startApp(commitIntervalMs, true);
    }

    private KafkaStreams startApp(long commitIntervalMs, boolean awaitRunning) {
        return startApp(commitIntervalMs, awaitRunning, DELIVER_ONE);
    }

    private KafkaStreams startApp(long commitIntervalMs, boolean awaitRunning, BiConsumer<UnreadChanges, RecordMetadata> write) {
        Topology topology = new Topology();
        topology.addSource("events", new ByteArrayDeserializer(), new ByteArrayDeserializer(), topic);
        topology.addProcessor("to-redis", () -> new Processor<byte[], byte[], Void, Void>() {
            private ProcessorContext<Void, Void> context;

            @Override
            public void init(ProcessorContext<Void, Void> context) {
                this.context = context;
            }

            @Override
            public void process(Record<byte[], byte[]> record) {
                write.accept(writers.current(), context.recordMetadata().orElseThrow());
                processed.incrementAndGet();
            }
        }, "events");

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitIntervalMs);
        props.put(StreamsConfig.STATE_DIR_CONFIG, tempDir());
        KafkaStreams app = new KafkaStreams(topology, props, new RedisFirstClientSupplier(writers, new ThreadCommits()));
        apps.add(app);
        app.start();
        if (awaitRunning) await().atMost(SOON).until(() -> app.state() == KafkaStreams.State.RUNNING);
        return app;
    }

    private String tempDir() {
        return stateDirs.resolve("instance-" + apps.size()).toString();
    }

    private static long user(int partition) {
        return 1_000 + partition;
    }

    /**
     * One record per partition, processed: the stream thread has its Redis connection (opened and its scripts loaded
     * while Redis still takes writes) before Redis is held back.
     */
    private void warmUp() {
        produceToBothPartitions(1);
        await().atMost(SOON).until(() -> processed.get() == 2);
    }

    private void produceToBothPartitions() {
        produceToBothPartitions(RECORDS_PER_PARTITION);
    }

    private void produceToBothPartitions(int perPartition) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int partition = 0; partition < 2; partition++) {
                for (int i = 0; i < perPartition; i++) {
                    producer.send(new ProducerRecord<>(topic, partition, 1_767_225_600_000L + i, null, new byte[]{1}));
                }
            }
            producer.flush();
        }
    }

    /** Committed offsets of the application, summed over the topic's partitions. */
    private long committedTotal() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(applicationId)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset()).sum();
    }

    private void assertEverythingInRedis() {
        UnreadReader reader = new UnreadReader(redis.shared(), keys);
        for (int partition = 0; partition < 2; partition++) {
            assertThat(reader.counts(user(partition)).total()).as("unread of partition %d", partition)
                    .isEqualTo(1 + RECORDS_PER_PARTITION);
        }
    }

    /** Redis answers reads but holds every write (scripts included) until {@link #letRedisGo()}. */
    private void holdRedisBack() {
        client("PAUSE", "600000", "WRITE");
    }

    private void letRedisGo() {
        client("UNPAUSE");
    }

    private void client(String... args) {
        CommandArgs<String, String> command = new CommandArgs<>(StringCodec.UTF8);
        for (String arg : args) command.add(arg);
        try {
            redis.shared().async().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8), command)
                    .get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("CLIENT " + String.join(" ", args) + " failed", e);
        }
    }
}
