package io.readmark.launcher;

import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.KafkaClientSettings;
import io.readmark.common.config.Settings;
import io.readmark.common.http.CorsPolicy;
import io.readmark.infra.EmbeddedKafka;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.KafkaTopics;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.StreamProcessor;
import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.schemas.Topics;
import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole pipeline in one process: Kafka and Redis (embedded unless {@code KAFKA_BOOTSTRAP_SERVERS} /
 * {@code REDIS_URL} point elsewhere), the topics, the stream processor and both APIs. Closes in reverse order.
 * Authentication is off unless {@code READMARK_AUTH=jwt} is set explicitly.
 */
public final class LocalStack implements AutoCloseable {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private String kafkaBootstrapServers;
    private String redisUrl;
    private Topics topics;
    private StreamProcessor processor;
    private volatile ProducerApi producerApi; // read by the demo page's requests, which may come before it starts
    private ViewApi viewApi;
    private Settings viewApiSettings; // with the port bound first, for a restart
    private DemoPage demoPage;
    private boolean authenticated;

    private LocalStack() {
    }

    public static LocalStack start(Settings settings) throws IOException {
        LocalStack stack = new LocalStack();
        try {
            stack.startAll(settings);
            return stack;
        } catch (RuntimeException | IOException e) {
            stack.close();
            throw e;
        }
    }

    private void startAll(Settings settings) throws IOException {
        kafkaBootstrapServers = settings.find("KAFKA_BOOTSTRAP_SERVERS").orElseGet(() ->
                started(EmbeddedKafka.start(settings.integer("KAFKA_PORT", 9092))).bootstrapServers());
        redisUrl = settings.find("REDIS_URL").orElseGet(() ->
                started(EmbeddedRedis.start(settings.integer("REDIS_PORT", 6379))).url());

        // Local runs are ephemeral: embedded Redis keeps nothing, so neither may the processor's state. Management ports
        // (health and metrics) take any free port, so that local runs (and tests) side by side do not clash.
        // They serve one developer on loopback, who has no token issuer: authentication is off unless asked for.
        Settings effective = settings
                .withDefaults(Map.of("PRODUCER_API_HOST", "127.0.0.1", "VIEW_API_HOST", "127.0.0.1",
                        "PROCESSOR_HTTP_HOST", "127.0.0.1", "PROCESSOR_HTTP_PORT", "0",
                        ProducerApiConfig.MANAGEMENT_PORT, "0", ViewApiConfig.MANAGEMENT_PORT, "0",
                        "PROCESSOR_STATE_DIR", Files.createTempDirectory("readmark-streams").toString(),
                        AuthConfig.MODE, "off"))
                .withOverrides(Map.of("KAFKA_BOOTSTRAP_SERVERS", kafkaBootstrapServers, "REDIS_URL", redisUrl));
        topics = createTopics(effective, kafkaBootstrapServers);

        // Read before anything slow starts, so a bad API setting fails at once.
        ProducerApiConfig producerConfig = ProducerApiConfig.from(effective);
        ViewApiConfig viewConfig = ViewApiConfig.from(effective);
        authenticated = producerConfig.auth().enabled();

        processor = started(StreamProcessor.start(ProcessorConfig.from(effective)));
        awaitRunning(processor);
        // The view API serves the demo page, which sends events to the producer API: that API lets the page's origin
        // call it unless its origins are configured. So the view API starts first, and the page learns the producer
        // API's address when it is asked for.
        demoPage = new DemoPage(this::startedProducerApiUrl);
        viewApi = ViewApi.start(viewConfig, demoPage::register);
        started(() -> viewApi.close()); // the instance running at the end, after any restart
        viewApiSettings = effective.withOverrides(Map.of("VIEW_API_PORT", Integer.toString(viewApi.port())));
        if (effective.find(ProducerApiConfig.CORS_ORIGINS).isEmpty()) {
            producerConfig = producerConfig.withCors(CorsPolicy.parse(ProducerApiConfig.CORS_ORIGINS,
                    "http://localhost:" + viewApi.port() + ", http://127.0.0.1:" + viewApi.port()));
        }
        producerApi = started(ProducerApi.start(producerConfig));
    }

    /**
     * Creates the pipeline's topics, {@code READMARK_PARTITIONS} partitions each (the dead letters one), and returns
     * them. Through the pass-through client settings, as every other client, so a secured broker works here too.
     */
    public static Topics createTopics(Settings settings, String bootstrapServers) {
        Topics topics = Topics.from(settings::find);
        int partitions = settings.positiveInteger("READMARK_PARTITIONS", 3);
        KafkaTopics.createTopics(KafkaClientSettings.from(settings).under(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)), Map.of(
                topics.blogEvents().name(), partitions,
                topics.followEvents().name(), partitions,
                topics.readEvents().name(), partitions,
                topics.deadLetters().name(), 1,
                topics.fanoutChunks().name(), partitions,
                topics.noticeEvents().name(), partitions));
        return topics;
    }

    /** Stops the view API, cutting its streams as a deploy or a crash does; {@link #startViewApi()} brings it back. */
    public void stopViewApi() {
        viewApi.close();
    }

    /** Starts the view API again, on the port it had, so that clients reconnect to the address they know. */
    public void startViewApi() {
        viewApi = ViewApiRestart.onSamePort(ViewApiConfig.from(viewApiSettings), demoPage::register);
    }

    private static void awaitRunning(StreamProcessor processor) {
        try {
            if (!processor.awaitRunning(STARTUP_TIMEOUT)) {
                throw new IllegalStateException("stream processor not RUNNING after " + STARTUP_TIMEOUT.toSeconds() + " s (state " + processor.state() + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting", e);
        }
    }

    private <T extends AutoCloseable> T started(T component) {
        started.push(component);
        return component;
    }

    public String kafkaBootstrapServers() {
        return kafkaBootstrapServers;
    }

    public String redisUrl() {
        return redisUrl;
    }

    public Topics topics() {
        return topics;
    }

    /** Whether the APIs require bearer tokens; false by default in local runs. */
    public boolean authenticated() {
        return authenticated;
    }

    public String producerApiUrl() {
        return "http://localhost:" + producerApi.port();
    }

    /** The producer API's routes, as {@code "POST /v1/events"}. */
    public List<String> producerApiRoutes() {
        return producerApi.routes();
    }

    /** The view API's routes, as {@code "GET /v1/users/{userId}/unread"}; not the demo page local runs add. */
    public List<String> viewApiRoutes() {
        return viewApi.routes().stream().filter(route -> !route.startsWith("GET " + DemoPage.PATH)).toList();
    }

    public String viewApiUrl() {
        return "http://localhost:" + viewApi.port();
    }

    private Optional<String> startedProducerApiUrl() {
        return Optional.ofNullable(producerApi).map(api -> "http://localhost:" + api.port());
    }

    /** The demo inbox page, served by the view API. */
    public String demoUrl() {
        return viewApiUrl() + DemoPage.PATH;
    }

    /** Where the producer API serves {@code /health/live}, {@code /health/ready} and {@code /metrics}. */
    public String producerManagementUrl() {
        return "http://localhost:" + producerApi.managementPort();
    }

    /** Where the view API serves {@code /health/live}, {@code /health/ready} and {@code /metrics}. */
    public String viewManagementUrl() {
        return "http://localhost:" + viewApi.managementPort();
    }

    /** Where the stream processor serves {@code /health/live}, {@code /health/ready} and {@code /metrics}. */
    public String processorUrl() {
        return "http://localhost:" + processor.httpPort();
    }

    @Override
    public void close() {
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                System.err.println("readmark: error while stopping: " + e);
            }
        }
    }
}
