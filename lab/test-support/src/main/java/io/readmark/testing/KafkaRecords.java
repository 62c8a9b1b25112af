package io.readmark.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import io.readmark.infra.KafkaTopics;
import io.readmark.infra.TestInfrastructure;

/**
 * Test helpers that read Kafka directly, so assertions check what a downstream consumer would really see.
 * Reading one exact position keeps tests independent of whatever else a shared broker holds.
 */
public final class KafkaRecords {

    private KafkaRecords() {
    }

    public static String bootstrap() {
        return TestInfrastructure.shared().kafkaBootstrapServers();
    }

    /** Readmark's topic settings and the partitions each topic is created with; the dead letters need only one. */
    private static final Map<String, Integer> TOPIC_SETTINGS = Map.of(
            "READMARK_TOPIC_BLOG_EVENTS", 3, "READMARK_TOPIC_FOLLOW_EVENTS", 3, "READMARK_TOPIC_READ_EVENTS", 3,
            "READMARK_TOPIC_NOTICE_EVENTS", 3, "READMARK_TOPIC_DLQ", 1, "READMARK_TOPIC_FANOUT", 3);

    /**
     * Creates Readmark's topics on the shared broker under names only this test class uses (auto-creation is off) and
     * answers the settings that name them, for {@code Topics.from}.
     */
    public static Function<String, Optional<String>> createTopicsFor(Class<?> testClass) {
        String prefix = testClass.getSimpleName().toLowerCase() + ".";
        Map<String, String> names = new HashMap<>();
        Map<String, Integer> partitions = new HashMap<>();
        TOPIC_SETTINGS.forEach((setting, count) -> {
            String name = prefix + setting.substring("READMARK_TOPIC_".length()).toLowerCase().replace('_', '-');
            names.put(setting, name);
            partitions.put(name, count);
        });
        KafkaTopics.createTopics(bootstrap(), partitions);
        return setting -> Optional.ofNullable(names.get(setting));
    }

    /** The record stored at exactly this position, raw value bytes included. */
    public static ConsumerRecord<String, byte[]> at(String topic, int partition, long offset) {
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
    public static int unusedLocalPort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
