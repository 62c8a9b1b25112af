package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import org.junit.jupiter.api.Test;

// Not named TestInfrastructureIT: surefire's default includes match Test*.java and would run it as a unit test.
class SharedInfrastructureIT {

    @Test
    void sharedStartsTheServicesOnceAndTheyWork() throws Exception {
        Infrastructure first = TestInfrastructure.shared();
        assertThat(TestInfrastructure.shared()).isSameAs(first);

        // Through the public contract only: the addresses must be usable by any client.
        KafkaTopics.createTopics(first.kafkaBootstrapServers(), Map.of("shared-infra-it", 1));
        EmbeddedKafkaIT.produce(first.kafkaBootstrapServers(), "shared-infra-it", "k", "v");
        assertThat(EmbeddedKafkaIT.consumeOne(first.kafkaBootstrapServers(), "shared-infra-it").value()).isEqualTo("v");

        RedisClient redis = RedisClient.create(first.redisUrl());
        try (StatefulRedisConnection<String, String> connection = redis.connect()) {
            assertThat(connection.sync().ping()).isEqualTo("PONG");
        } finally {
            redis.shutdown();
        }
    }

    @Test
    void startsOnlyWhatTheEnvironmentDoesNotProvide() {
        try (TestInfrastructure.Started started =
                     TestInfrastructure.start(Map.of(TestInfrastructure.REDIS_ENV, "redis://example.invalid:6379"))) {
            assertThat(started.infrastructure().redisUrl()).isEqualTo("redis://example.invalid:6379");
            assertThat(started.infrastructure().kafkaBootstrapServers()).startsWith("localhost:");
            assertThat(started.resources()).singleElement().isInstanceOf(EmbeddedKafka.class);
        }
    }
}
