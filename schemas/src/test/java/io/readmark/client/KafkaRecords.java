package io.readmark.client;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.Topics;

/**
 * Test helpers that read Kafka directly, so assertions check what a downstream consumer would really see.
 * Reading one exact position keeps tests independent of whatever else a shared broker holds.
 */
final class KafkaRecords {

    private KafkaRecords() {
    }

    static String bootstrap() {
        return TestInfrastructure.shared().kafkaBootstrapServers();
    }

    /** Topics only this test class writes to, created on the shared broker (auto-creation is off). */
    static Topics createTopicsFor(Class<?> testClass) {
        String prefix = testClass.getSimpleName().toLowerCase() + ".";
        Topics topics = Topics.named(prefix + "blog-events", prefix + "follow-events", prefix + "read-events", prefix + "dlq",
                prefix + "fanout", prefix + "notice-events");
        KafkaTopics.createTopics(bootstrap(), Map.of(
                topics.noticeEvents().name(), 3,
                topics.blogEvents().name(), 3,
                topics.followEvents().name(), 3,
                topics.readEvents().name(), 3,
                topics.deadLetters().name(), 1));
        return topics;
    }

    /** The record stored at exactly this position, raw value bytes included. */
    static ConsumerRecord<String, byte[]> at(String topic, int partition, long offset) {
        TopicPartition position = new TopicPartition(topic, partition);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()))) {
            consumer.assign(List.of(position));
            consumer.seek(position, offset);
            AtomicReference<ConsumerRecord<String, byte[]>> found = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200)).records(position)) {
                    if (record.offset() == offset) found.set(record);
                }
                return found.get() != null;
            });
            return found.get();
        }
    }

    /** A loopback port nothing listens on, so a client pointed at it is refused at once. */
    static int unusedLocalPort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
