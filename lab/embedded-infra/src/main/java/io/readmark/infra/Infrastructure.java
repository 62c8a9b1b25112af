package io.readmark.infra;

import java.util.Objects;

/**
 * Where the running Kafka and Redis are. Guarantees both addresses are non-blank: a Kafka bootstrap list
 * such as {@code localhost:9092} and a Redis URI such as {@code redis://127.0.0.1:6379}.
 */
public record Infrastructure(String kafkaBootstrapServers, String redisUrl) {

    public Infrastructure {
        Objects.requireNonNull(kafkaBootstrapServers, "kafkaBootstrapServers");
        Objects.requireNonNull(redisUrl, "redisUrl");
        if (kafkaBootstrapServers.isBlank() || redisUrl.isBlank()) {
            throw new IllegalArgumentException("blank address: kafka='" + kafkaBootstrapServers
                    + "', redis='" + redisUrl + "'");
        }
    }
}
