package io.readmark.processor;

import io.readmark.common.config.Settings;
import io.readmark.processor.graph.BigVPolicy;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcessorConfigTest {

    @Test
    void shouldDefaultToALocalSetup() {
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(), Map.of()));
        assertThat(config.bootstrapServers()).isEqualTo("localhost:9092");
        assertThat(config.redis()).hasToString("redis://localhost:6379");
        assertThat(config.topics().blogEvents().name()).isEqualTo("blog-events");
        assertThat(config.topics().deadLetters().name()).isEqualTo("readmark-dlq");
        assertThat(config.limits().maxUnreadPerAuthor()).isEqualTo(1000);
        assertThat(config.streamsProperties()).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        assertThat(config.httpHost()).isEqualTo("127.0.0.1");
        assertThat(config.httpPort()).isEqualTo(8082);
        assertThat(config.streamsProperties())
                .containsEntry(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 45_000)
                .containsEntry(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 15_000)
                .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 1);
        assertThat(config.authorPartitions()).isEqualTo(6);
    }

    @Test
    void shouldGiveEveryKafkaClientTheClientSettingsAndRefuseOnesItSetsItself() {
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(), Map.of(
                "KAFKA_CLIENT_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_CLIENT_SASL_MECHANISM", "SCRAM-SHA-512")));
        for (Map<Object, Object> props : List.<Map<Object, Object>>of(config.streamsProperties(), config.fanoutWorkerProperties(),
                Map.copyOf(config.adminProperties()))) {
            assertThat(props).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        }

        ProcessorConfig clash = ProcessorConfig.from(Settings.of(Map.of(), Map.of("KAFKA_CLIENT_COMMIT_INTERVAL_MS", "100")));
        assertThatThrownBy(clash::streamsProperties).hasMessageContaining("KAFKA_CLIENT_COMMIT_INTERVAL_MS");
    }

    @Test
    void shouldRefuseToBuildAConfigWithAComponentLeftUnset() {
        assertThatThrownBy(() -> ProcessorConfig.builder().bootstrapServers("kafka:9092").build())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("redis");
    }

    @Test
    void shouldGiveBothApplicationsTheSessionTimeoutAndAThirdOfItAsHeartbeat() {
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(), Map.of("PROCESSOR_SESSION_TIMEOUT", "PT6S")));
        for (var props : List.of(config.streamsProperties(), config.fanoutWorkerProperties())) {
            assertThat(props)
                    .containsEntry(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000)
                    .containsEntry(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 2_000);
        }
        assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of("PROCESSOR_SESSION_TIMEOUT", "PT0S"))))
                .hasMessageContaining("PROCESSOR_SESSION_TIMEOUT");
    }

    @Test
    void shouldBoundEventTimesByTheSharedSkewSetting() {
        assertThat(ProcessorConfig.from(Settings.of(Map.of(), Map.of())).eventTimes().maxSkew()).isEqualTo(Duration.ofHours(1));
        assertThat(ProcessorConfig.from(Settings.of(Map.of(), Map.of("READMARK_MAX_EVENT_SKEW", "PT5M"))).eventTimes().maxSkew())
                .isEqualTo(Duration.ofMinutes(5));
        assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of("READMARK_MAX_EVENT_SKEW", "-PT1S"))))
                .hasMessageContaining("READMARK_MAX_EVENT_SKEW");
    }

    @Test
    void shouldTakeEveryValueFromTheEnvironment() {
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(), Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", "kafka:29092", "REDIS_URL", "redis-cluster://r1:7000,r2:7001",
                "READMARK_TOPIC_BLOG_EVENTS", "posts", "PROCESSOR_STREAM_THREADS", "4",
                "PROCESSOR_COMMIT_INTERVAL", "PT0.5S", "READMARK_MAX_UNREAD_PER_AUTHOR", "99",
                "PROCESSOR_HTTP_HOST", "127.0.0.1", "PROCESSOR_HTTP_PORT", "9102")));
        assertThat(config.bootstrapServers()).isEqualTo("kafka:29092");
        assertThat(config.redis().isCluster()).isTrue();
        assertThat(config.topics().blogEvents().name()).isEqualTo("posts");
        assertThat(config.commitInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.limits().maxUnreadPerAuthor()).isEqualTo(99);
        assertThat(config.streamsProperties()).containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 4);
        assertThat(config.httpHost()).isEqualTo("127.0.0.1");
        assertThat(config.httpPort()).isEqualTo(9102);
    }

    @Test
    void shouldRunBothRolesWithABigVThresholdAndHysteresisByDefault() {
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(), Map.of()));
        assertThat(config.runMain()).isTrue();
        assertThat(config.runFanoutWorker()).isTrue();
        assertThat(config.fanout().policy()).isEqualTo(new BigVPolicy(10_000, 9_000));
        assertThat(config.fanout().recentPostRetention()).isEqualTo(Duration.ofDays(1));
        assertThat(config.fanoutWorkerProperties()).containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "readmark-processor-fanout");
    }

    @Test
    void shouldRunOnlyTheRolesItIsGiven() {
        ProcessorConfig worker = ProcessorConfig.from(Settings.of(Map.of(), Map.of("PROCESSOR_ROLES", "fanout",
                "PROCESSOR_BIGV_THRESHOLD", "500", "PROCESSOR_BIGV_RELEASE_BELOW", "400")));
        assertThat(worker.runMain()).isFalse();
        assertThat(worker.runFanoutWorker()).isTrue();
        assertThat(worker.fanout().policy()).isEqualTo(new BigVPolicy(500, 400));
        assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of("PROCESSOR_ROLES", "everything"))))
                .hasMessageContaining("PROCESSOR_ROLES");
    }

    @Test
    void shouldRejectAPortOutOfRange() {
        assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of("PROCESSOR_HTTP_PORT", "65536"))))
                .hasMessageContaining("PROCESSOR_HTTP_PORT");
    }

    @Test
    void shouldWaitForNoReplicaUnlessTold() {
        assertThat(ProcessorConfig.from(Settings.of(Map.of(), Map.of())).waitReplicas()).isZero();
        assertThat(ProcessorConfig.from(Settings.of(Map.of(), Map.of(ProcessorConfig.WAIT_REPLICAS, "1"))).waitReplicas()).isEqualTo(1);
        assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of(ProcessorConfig.WAIT_REPLICAS, "-1"))))
                .hasMessageContaining(ProcessorConfig.WAIT_REPLICAS);
    }

    @Test
    void shouldGuardWritesForALayoutUpgradeOnlyWhenTold() {
        assertThat(ProcessorConfig.from(Settings.of(Map.of(), Map.of())).layoutUpgrade()).isFalse();
        assertThat(ProcessorConfig.from(Settings.of(Map.of(), Map.of(ProcessorConfig.LAYOUT_UPGRADE, "true"))).layoutUpgrade()).isTrue();
        assertThat(ProcessorConfig.from(Settings.of(Map.of(), Map.of(ProcessorConfig.LAYOUT_UPGRADE, "false"))).layoutUpgrade()).isFalse();
        for (String other : List.of("maybe", "ture")) {
            assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of(ProcessorConfig.LAYOUT_UPGRADE, other))))
                    .as(other).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ProcessorConfig.LAYOUT_UPGRADE);
        }
    }

    @Test
    void shouldRejectANonPositiveCap() {
        assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of("READMARK_MAX_UNREAD_PER_AUTHOR", "0"))))
                .hasMessageContaining("READMARK_MAX_UNREAD_PER_AUTHOR");
    }

    @Test
    void shouldRejectPostsRememberedLongerThanTheirDeletes() {
        assertThatThrownBy(() -> ProcessorConfig.from(Settings.of(Map.of(), Map.of("PROCESSOR_RECENT_POST_RETENTION", "P8D"))))
                .hasMessageContaining("PROCESSOR_RECENT_POST_RETENTION (PT192H)")
                .hasMessageContaining("PROCESSOR_DELETED_BLOG_RETENTION (PT168H)");
        ProcessorConfig equal = ProcessorConfig.from(Settings.of(Map.of(), Map.of("PROCESSOR_RECENT_POST_RETENTION", "P7D")));
        assertThat(equal.fanout().recentPostRetention()).isEqualTo(equal.fanout().tombstoneRetention());
    }
}
