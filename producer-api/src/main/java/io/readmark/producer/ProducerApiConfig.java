package io.readmark.producer;

import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.KafkaClientSettings;
import io.readmark.common.config.Settings;
import io.readmark.common.http.CorsPolicy;
import io.readmark.common.http.HttpLimits;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.Topics;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything the HTTP ingest needs to start. Guarantees a usable configuration: a port in range (0 picks a free
 * one), a positive acknowledgement timeout and positive body and batch limits; a bad setting fails at startup naming
 * the setting.
 *
 * @param host             interface to listen on
 * @param port             TCP port, 0 for any free port
 * @param bootstrapServers Kafka bootstrap list
 * @param topics           topic names of the event contract
 * @param ackTimeout       how long one request waits for Kafka's acknowledgement before answering 503
 * @param maxBodyBytes     largest accepted body of a single event; larger ones are answered 413
 * @param maxBatchEvents   most events accepted in one batch request; more are answered 413
 * @param maxBatchBytes    largest accepted body of a batch request; larger ones are answered 413
 * @param auth             how callers are authenticated ({@code READMARK_AUTH} and the {@code AUTH_*} settings); tokens
 *                         must name {@code AUTH_JWT_AUDIENCE}, by default {@value AuthConfig#PRODUCER_API_AUDIENCE}
 * @param managementHost   interface of the management port (health, metrics): loopback unless set
 * @param managementPort   management port, 0 for any free port
 * @param http             what one client may hold of the API port ({@code HTTP_*} settings)
 * @param cors             browser origins whose pages may call the API ({@code PRODUCER_API_CORS_ORIGINS}; none by default)
 * @param eventTimes       how far past this machine's clock an event may be dated ({@value EventTimeLimit#SETTING}, as the
 *                         processor); later ones are answered 400
 * @param kafkaClient      properties for the producer and the health check's admin client: security, TLS, SASL
 */
public record ProducerApiConfig(String host, int port, String bootstrapServers, Topics topics,
                                Duration ackTimeout, int maxBodyBytes, int maxBatchEvents, int maxBatchBytes,
                                AuthConfig auth, String managementHost, int managementPort, HttpLimits http,
                                CorsPolicy cors, EventTimeLimit eventTimes, KafkaClientSettings kafkaClient) {

    public static final String HOST = "PRODUCER_API_HOST";
    public static final String PORT = "PRODUCER_API_PORT";
    public static final String BOOTSTRAP_SERVERS = "KAFKA_BOOTSTRAP_SERVERS";
    public static final String ACK_TIMEOUT = "PRODUCER_API_ACK_TIMEOUT";
    public static final String MAX_BODY_BYTES = "PRODUCER_API_MAX_BODY_BYTES";
    public static final String MAX_BATCH_EVENTS = "PRODUCER_API_MAX_BATCH_EVENTS";
    public static final String MAX_BATCH_BYTES = "PRODUCER_API_MAX_BATCH_BYTES";
    public static final String MANAGEMENT_HOST = "PRODUCER_API_MANAGEMENT_HOST";
    public static final String MANAGEMENT_PORT = "PRODUCER_API_MANAGEMENT_PORT";
    public static final String CORS_ORIGINS = "PRODUCER_API_CORS_ORIGINS";

    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_PORT = 8080;
    public static final String DEFAULT_MANAGEMENT_HOST = "127.0.0.1";
    public static final int DEFAULT_MANAGEMENT_PORT = 9080;
    public static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";
    public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;
    public static final int DEFAULT_MAX_BATCH_EVENTS = 1000;
    public static final int DEFAULT_MAX_BATCH_BYTES = 1024 * 1024;
    /**
     * Publishers keep a few pooled connections each, and every connection may hold a body being read (up to
     * {@link #DEFAULT_MAX_BATCH_BYTES}, off-heap): 256 of them bound that to 256 MiB.
     */
    public static final int DEFAULT_MAX_CONNECTIONS = 256;

    public ProducerApiConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(ackTimeout, "ackTimeout");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(managementHost, "managementHost");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(cors, "cors");
        Objects.requireNonNull(eventTimes, "eventTimes");
        Objects.requireNonNull(kafkaClient, "kafkaClient");
        require(!host.isBlank(), HOST, "must not be blank");
        require(port >= 0 && port <= 65_535, PORT, "must be between 0 and 65535, was " + port);
        require(!bootstrapServers.isBlank(), BOOTSTRAP_SERVERS, "must not be blank");
        require(ackTimeout.isPositive(), ACK_TIMEOUT, "must be positive, was " + ackTimeout);
        // The producer takes its blocking bound as int milliseconds.
        require(ackTimeout.toMillis() <= Integer.MAX_VALUE, ACK_TIMEOUT, "must be at most " + Integer.MAX_VALUE + " ms");
        require(maxBodyBytes > 0, MAX_BODY_BYTES, "must be positive, was " + maxBodyBytes);
        require(maxBatchEvents > 0, MAX_BATCH_EVENTS, "must be positive, was " + maxBatchEvents);
        require(maxBatchBytes > 0, MAX_BATCH_BYTES, "must be positive, was " + maxBatchBytes);
        require(!managementHost.isBlank(), MANAGEMENT_HOST, "must not be blank");
        require(managementPort >= 0 && managementPort <= 65_535, MANAGEMENT_PORT, "must be between 0 and 65535, was " + managementPort);
    }

    /** Reads the {@code PRODUCER_API_*} settings, {@code KAFKA_BOOTSTRAP_SERVERS}, the topic names and auth. */
    public static ProducerApiConfig from(Settings settings) {
        return new ProducerApiConfig(
                settings.string(HOST, DEFAULT_HOST),
                settings.integer(PORT, DEFAULT_PORT),
                settings.string(BOOTSTRAP_SERVERS, DEFAULT_BOOTSTRAP_SERVERS),
                Topics.from(settings::find),
                settings.duration(ACK_TIMEOUT, DEFAULT_ACK_TIMEOUT),
                settings.positiveInteger(MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES),
                settings.positiveInteger(MAX_BATCH_EVENTS, DEFAULT_MAX_BATCH_EVENTS),
                settings.positiveInteger(MAX_BATCH_BYTES, DEFAULT_MAX_BATCH_BYTES),
                AuthConfig.from(settings, AuthConfig.PRODUCER_API_AUDIENCE),
                settings.string(MANAGEMENT_HOST, DEFAULT_MANAGEMENT_HOST),
                settings.integer(MANAGEMENT_PORT, DEFAULT_MANAGEMENT_PORT),
                HttpLimits.from(settings, HttpLimits.defaults().withMaxConnections(DEFAULT_MAX_CONNECTIONS)),
                CorsPolicy.from(settings, CORS_ORIGINS),
                new EventTimeLimit(settings.duration(EventTimeLimit.SETTING, EventTimeLimit.DEFAULT_MAX_SKEW)),
                KafkaClientSettings.from(settings));
    }

    /**
     * Listens on 127.0.0.1 on any free port, without authentication, with the default timeout and limits: a config for
     * tests and local tools, adjusted by the {@code with...} methods.
     */
    public static ProducerApiConfig onLoopback(String bootstrapServers, Topics topics) {
        return new ProducerApiConfig("127.0.0.1", 0, bootstrapServers, topics, DEFAULT_ACK_TIMEOUT, DEFAULT_MAX_BODY_BYTES,
                DEFAULT_MAX_BATCH_EVENTS, DEFAULT_MAX_BATCH_BYTES, AuthConfig.off(), "127.0.0.1", 0, HttpLimits.defaults(),
                CorsPolicy.none(), EventTimeLimit.DEFAULT, KafkaClientSettings.none());
    }

    public ProducerApiConfig withAckTimeout(Duration ackTimeout) {
        return new ProducerApiConfig(host, port, bootstrapServers, topics, ackTimeout, maxBodyBytes, maxBatchEvents, maxBatchBytes, auth,
                managementHost, managementPort, http, cors, eventTimes, kafkaClient);
    }

    public ProducerApiConfig withMaxBodyBytes(int maxBodyBytes) {
        return new ProducerApiConfig(host, port, bootstrapServers, topics, ackTimeout, maxBodyBytes, maxBatchEvents, maxBatchBytes, auth,
                managementHost, managementPort, http, cors, eventTimes, kafkaClient);
    }

    public ProducerApiConfig withMaxBatchEvents(int maxBatchEvents) {
        return new ProducerApiConfig(host, port, bootstrapServers, topics, ackTimeout, maxBodyBytes, maxBatchEvents, maxBatchBytes, auth,
                managementHost, managementPort, http, cors, eventTimes, kafkaClient);
    }

    public ProducerApiConfig withMaxBatchBytes(int maxBatchBytes) {
        return new ProducerApiConfig(host, port, bootstrapServers, topics, ackTimeout, maxBodyBytes, maxBatchEvents, maxBatchBytes, auth,
                managementHost, managementPort, http, cors, eventTimes, kafkaClient);
    }

    public ProducerApiConfig withCors(CorsPolicy cors) {
        return new ProducerApiConfig(host, port, bootstrapServers, topics, ackTimeout, maxBodyBytes, maxBatchEvents, maxBatchBytes, auth,
                managementHost, managementPort, http, cors, eventTimes, kafkaClient);
    }

    public ProducerApiConfig withKafkaClient(KafkaClientSettings kafkaClient) {
        return new ProducerApiConfig(host, port, bootstrapServers, topics, ackTimeout, maxBodyBytes, maxBatchEvents, maxBatchBytes, auth,
                managementHost, managementPort, http, cors, eventTimes, kafkaClient);
    }

    /** The limits of the API port, with room for the largest body a route reads. */
    public HttpLimits apiLimits() {
        return http.withMaxBody(Math.max(maxBodyBytes, maxBatchBytes));
    }

    private static void require(boolean condition, String setting, String message) {
        // Named after the setting, because that is what an operator has to fix.
        if (!condition) throw new IllegalArgumentException(setting + " " + message);
    }
}
