package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaIT {

    @Test
    void producesAndConsumesThroughARealBroker() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0)) {
            assertThat(kafka.bootstrapServers()).isEqualTo("localhost:" + kafka.port());
            kafka.createTopics(Map.of("greetings", 3));
            kafka.createTopics(Map.of("greetings", 3)); // idempotent

            RecordMetadata sent = produce(kafka.bootstrapServers(), "greetings", "user-1", "hello");
            assertThat(sent.topic()).isEqualTo("greetings");

            assertThat(consumeOne(kafka.bootstrapServers(), "greetings"))
                    .satisfies(r -> {
                        assertThat(r.key()).isEqualTo("user-1");
                        assertThat(r.value()).isEqualTo("hello");
                    });
        }
    }

    @Test
    void autoCreationIsDisabled() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            kafka.createTopics(Map.of("a", 1, "b", 2));
            assertThat(admin.listTopics().names().get()).containsAll(Set.of("a", "b")).doesNotContain("missing");
            assertThat(admin.describeTopics(Set.of("b")).allTopicNames().get().get("b").partitions()).hasSize(2);
        }
    }

    @Test
    void deletesItsTempLogDirOnClose() {
        Path logDir;
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0)) {
            logDir = kafka.logDir();
            assertThat(logDir.resolve("meta.properties")).exists();
        }
        assertThat(logDir).doesNotExist();
    }

    @Test
    void reusesAnExistingLogDirAndKeepsData(@TempDir Path dir) throws Exception {
        Path logDir = dir.resolve("kafka");
        int port;
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0, logDir)) {
            port = kafka.port();
            kafka.createTopics(Map.of("kept", 1));
            produce(kafka.bootstrapServers(), "kept", "k", "survives restart");
        }
        String clusterIdLine = Files.readAllLines(logDir.resolve("meta.properties")).stream()
                .filter(l -> l.startsWith("cluster.id=")).findFirst().orElseThrow();

        // Same fixed port again, as a local run with a configured port would do right after a restart.
        try (EmbeddedKafka kafka = EmbeddedKafka.start(port, logDir)) {
            assertThat(kafka.port()).isEqualTo(port);
            assertThat(Files.readAllLines(logDir.resolve("meta.properties"))).contains(clusterIdLine);
            assertThat(consumeOne(kafka.bootstrapServers(), "kept").value()).isEqualTo("survives restart");
        }
        assertThat(logDir).exists();
    }

    @Test
    void twoBrokersRunSideBySideInOneJvm() throws Exception {
        // Tests may start their own broker while TestInfrastructure.shared() is running.
        try (EmbeddedKafka first = EmbeddedKafka.start(0); EmbeddedKafka second = EmbeddedKafka.start(0)) {
            assertThat(first.port()).isNotEqualTo(second.port());
            first.createTopics(Map.of("t", 1));
            second.createTopics(Map.of("t", 1));
            produce(first.bootstrapServers(), "t", "k", "first");
            produce(second.bootstrapServers(), "t", "k", "second");
            assertThat(consumeOne(second.bootstrapServers(), "t").value()).isEqualTo("second");
            assertThat(consumeOne(first.bootstrapServers(), "t").value()).isEqualTo("first");
        }
    }

    @Test
    void failsClearlyWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedKafka.start(port))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + port)
                    .hasMessageContaining("already in use");
        }
    }

    @Test
    void acceptsOnlyItsScramUserOnTheClientListener() throws Exception {
        ScramUser user = new ScramUser("processor", "processor-secret");
        try (EmbeddedKafka kafka = EmbeddedKafka.startWithScram(user)) {
            kafka.createTopics(Map.of("secured", 1));

            produce(kafka.bootstrapServers(), user.clientProperties(), "secured", "k", "signed in");
            assertThat(consumeOne(kafka.internalBootstrapServers(), "secured").value()).isEqualTo("signed in");

            assertThatThrownBy(() -> produce(kafka.bootstrapServers(), Map.of(), "secured", "k", "anonymous"))
                    .as("a client without credentials").hasRootCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
            assertThatThrownBy(() -> produce(kafka.bootstrapServers(), new ScramUser("processor", "guessed").clientProperties(),
                    "secured", "k", "guessed")).hasRootCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    static RecordMetadata produce(String bootstrap, String topic, String key, String value) throws Exception {
        return produce(bootstrap, Map.of(), topic, key, value);
    }

    static RecordMetadata produce(String bootstrap, Map<String, String> security, String topic, String key, String value)
            throws Exception {
        Map<String, Object> config = new HashMap<>(security);
        config.putAll(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            return producer.send(new ProducerRecord<>(topic, key, value)).get();
        }
    }

    static ConsumerRecord<String, String> consumeOne(String bootstrap, String topic) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> received = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return !received.isEmpty();
            });
            return received.getFirst();
        }
    }
}
