package io.readmark.processor;

import io.readmark.common.config.Settings;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadReader;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A dead-letter topic that refuses a copy must not stop the stream thread that rejected the record. */
class DeadLetterSendFailureIT {

    @Test
    void shouldGoOnWithTheNextRecordsWhenTheDeadLetterTopicRefusesACopy() throws Exception {
        // Given a dead-letter topic that takes no record over 4 KB, and a processor on it
        Infrastructure infra = TestInfrastructure.shared();
        String run = "dlq-refuses-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("dlq-" + run, 1, (short) 1)
                    .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "4096")))).all().get();
        }
        KafkaTopics.createTopics(infra.kafkaBootstrapServers(), Map.of("blog-" + run, 1, "follow-" + run, 1,
                "read-" + run, 1, "fanout-" + run, 1, "dlq-" + run, 1, "notice-" + run, 1));
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", infra.kafkaBootstrapServers(),
                "REDIS_URL", infra.redisUrl(),
                "READMARK_REDIS_PREFIX", run,
                "READMARK_TOPIC_BLOG_EVENTS", "blog-" + run,
                "READMARK_TOPIC_FOLLOW_EVENTS", "follow-" + run,
                "READMARK_TOPIC_READ_EVENTS", "read-" + run,
                "READMARK_TOPIC_DLQ", "dlq-" + run,
                "READMARK_TOPIC_FANOUT", "fanout-" + run,
                "READMARK_TOPIC_NOTICE_EVENTS", "notice-" + run,
                "PROCESSOR_APPLICATION_ID", run), Map.of(
                "PROCESSOR_STATE_DIR", Files.createTempDirectory(run).toString(),
                "PROCESSOR_HTTP_HOST", "127.0.0.1",
                "PROCESSOR_HTTP_PORT", "0",
                "PROCESSOR_ROLES", "main",
                "PROCESSOR_STREAM_THREADS", "1")));
        try (StreamProcessor processor = StreamProcessor.start(config);
             RedisConnections redis = RedisConnections.connect(infra.redisUrl(), Duration.ofSeconds(5), false);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrapServers()));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrapServers()),
                     new StringSerializer(), new StringSerializer())) {
            assertThat(processor.awaitRunning(Duration.ofSeconds(60))).isTrue();

            // When a bad record whose copy is larger than the topic takes, then valid events, arrive
            producer.send(new ProducerRecord<>("follow-" + run, "7", """
                    {"type":"Followed","eventId":"f","followerId":101,"authorId":7,"at":"2026-01-01T00:00:00Z"}""")).get();
            producer.send(new ProducerRecord<>("blog-" + run, "7", "not json " + "x".repeat(10_000))).get();
            producer.send(new ProducerRecord<>("blog-" + run, "7", """
                    {"type":"BlogPublished","eventId":"p","blogId":1001,"authorId":7,"publishedAt":"2026-01-01T12:00:00Z"}""")).get();

            // Then the valid event is applied and both records are committed: the refusal (reported after the send,
            // at the latest when the thread commits) did not kill the thread, which would re-read them forever
            UnreadReader reader = new UnreadReader(redis.shared(), new UnreadKeys(run));
            await().atMost(Duration.ofSeconds(60)).until(() -> reader.counts(101).total() == 1);
            await().atMost(Duration.ofSeconds(60)).until(() -> committed(admin, run, "blog-" + run) == 2);
            assertThat(processor.failedStreamThreads()).isZero();
            assertThat(processor.isRunning()).as(processor.state()).isTrue();
        }
    }

    private static long committed(Admin admin, String group, String topic) throws Exception {
        OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                .get(new TopicPartition(topic, 0));
        return offset == null ? -1 : offset.offset();
    }
}
