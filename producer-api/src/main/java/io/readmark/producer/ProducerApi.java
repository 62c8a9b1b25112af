package io.readmark.producer;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.readmark.client.EventPublisher;
import io.readmark.common.auth.Access;
import io.readmark.common.auth.PublishRule;
import io.readmark.common.config.Settings;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.http.OpenApiDocument;
import io.readmark.common.metrics.ServiceMetrics;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The HTTP ingest deployable: wires an {@link EventPublisher}, the routes, the API server and the management
 * server (health, metrics). Guarantees that no request outlives the ack timeout by much and that closing answers in-flight requests
 * before the producer goes away.
 */
public final class ProducerApi implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProducerApi.class);

    private final ServiceMetrics metrics;
    private final EventPublisher publisher;
    private final KafkaClientMetrics producerMetrics;
    private final HealthRoutes health;
    private final JsonHttpServer server;
    private final JsonHttpServer management;
    private boolean closed;

    private ProducerApi(ServiceMetrics metrics, EventPublisher publisher, KafkaClientMetrics producerMetrics,
                        HealthRoutes health, JsonHttpServer server, JsonHttpServer management) {
        this.metrics = metrics;
        this.publisher = publisher;
        this.producerMetrics = producerMetrics;
        this.health = health;
        this.server = server;
        this.management = management;
    }

    /** Starts listening at once; Kafka is connected lazily, so a Kafka that is down means 503s, not a failed start. */
    public static ProducerApi start(ProducerApiConfig config) throws IOException {
        EventPublisher publisher = EventPublisher.connect(config.bootstrapServers(), config.topics(),
                        config.kafkaClient().under(producerOverrides(config)))
                .withEventTimeLimit(config.eventTimes());
        ServiceMetrics metrics = new ServiceMetrics("producer-api");
        KafkaClientMetrics producerMetrics = null;
        HealthRoutes health = null;
        JsonHttpServer server = null;
        JsonHttpServer management = null;
        try {
            producerMetrics = new KafkaClientMetrics(publisher.producer());
            producerMetrics.bindTo(metrics.registry());
            health = new HealthRoutes(config.bootstrapServers(), config.kafkaClient(), config.topics());
            IngestRoutes ingest = new IngestRoutes(publisher, config.ackTimeout(), config.maxBodyBytes(), config.eventTimes());
            BatchIngestRoutes batch = new BatchIngestRoutes(publisher, config.ackTimeout(),
                    config.maxBatchEvents(), config.maxBatchBytes(), config.eventTimes());
            Access access = Access.from("producer-api", config.auth());
            server = new JsonHttpServer("producer-api")
                    .limits(config.apiLimits())
                    .cors(config.cors())
                    .measuredBy(metrics.registry())
                    .route("POST", "/v1/events", access.requireCaller(PublishRule.ANY_PUBLISHING_SCOPE, ingest::ingest))
                    .route("POST", "/v1/events:batch", access.requireCaller(PublishRule.ANY_PUBLISHING_SCOPE, batch::ingest))
                    .route("GET", "/openapi.json", OpenApiDocument.handler(ProducerApi.class, "openapi.json"));
            server.start(config.host(), config.port());
            management = JsonHttpServer.management("producer-api", metrics.registry(), health::live, health::ready)
                    .start(config.managementHost(), config.managementPort());
            return new ProducerApi(metrics, publisher, producerMetrics, health, server, management);
        } catch (IOException | RuntimeException e) {
            // A port already in use must not leave producer threads and connections behind.
            closeQuietly(management);
            closeQuietly(server);
            closeQuietly(health);
            closeQuietly(producerMetrics);
            closeQuietly(publisher);
            closeQuietly(metrics);
            throw e;
        }
    }

    /**
     * A request must not wait in {@code send} for metadata longer than it may wait for the acknowledgement, and the
     * producer must not give up on a record sooner than the request would wait for it.
     */
    static Map<String, Object> producerOverrides(ProducerApiConfig config) {
        long ackMillis = config.ackTimeout().toMillis();
        long deliveryMillis = Math.max(ackMillis, EventPublisher.DEFAULT_TIMEOUT.toMillis());
        return Map.of(
                ProducerConfig.CLIENT_ID_CONFIG, "readmark-producer-api",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) ackMillis,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) deliveryMillis);
    }

    /** The routes served, as {@code "POST /v1/events"}. */
    public List<String> routes() {
        return server.routes();
    }

    /** The port actually bound, useful when the configuration asked for 0. */
    public int port() {
        return server.port();
    }

    /** The bound management port: health and metrics. */
    public int managementPort() {
        return management.port();
    }

    /** Stops accepting requests, lets in-flight ones finish, then flushes and closes the producer. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        // Server first: its close waits for running handlers, which still need the publisher to answer.
        closeQuietly(server);
        closeQuietly(management);
        closeQuietly(health);
        closeQuietly(producerMetrics);
        closeQuietly(publisher);
        closeQuietly(metrics);
        log.info("producer-api stopped");
    }

    /** Runs until the JVM is asked to stop (SIGTERM, Ctrl-C); the shutdown hook closes everything in order. */
    public static void main(String[] args) throws IOException, InterruptedException {
        ProducerApi api = start(ProducerApiConfig.from(Settings.fromEnvironment()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            api.close();
            stopped.countDown();
        }, "producer-api-shutdown"));
        stopped.await();
    }

    private static void closeQuietly(AutoCloseable resource) {
        if (resource == null) return;
        try {
            resource.close();
        } catch (Exception e) {
            log.warn("error while closing {}", resource.getClass().getSimpleName(), e);
        }
    }
}
