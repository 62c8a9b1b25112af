package io.readmark.producer;

import io.readmark.common.config.KafkaClientSettings;
import io.readmark.common.http.ApiException;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.schemas.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code /health/live} and {@code /health/ready}. Ready means an event posted now could be stored: Kafka answers
 * within {@link #TIMEOUT} and every event topic exists (topics are never auto-created). Never blocks longer.
 */
final class HealthRoutes implements AutoCloseable {

    /** Short, so that a readiness probe (typically allowed 1–5 s) gets an answer rather than a timeout. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(HealthRoutes.class);
    private static final Map<String, String> UP = Map.of("status", "UP");

    private final Admin admin;
    private final List<String> eventTopics;

    HealthRoutes(String bootstrapServers, KafkaClientSettings kafkaClient, Topics topics) {
        int timeoutMs = (int) TIMEOUT.toMillis();
        this.admin = Admin.create(kafkaClient.under(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, "readmark-producer-api-health",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs)));
        this.eventTopics = List.of(topics.blogEvents().name(), topics.followEvents().name(), topics.readEvents().name());
    }

    Response live(Request request) {
        // Liveness says only that this process serves requests; Kafka trouble must not get it restarted.
        return Response.ok(UP);
    }

    Response ready(Request request) {
        try {
            admin.describeTopics(eventTopics, new DescribeTopicsOptions().timeoutMs((int) TIMEOUT.toMillis()))
                    .allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return Response.ok(UP);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw notReady("an event topic is missing (one of " + eventTopics + ")");
            }
            log.debug("Kafka not reachable: {}", cause.toString());
            throw notReady("Kafka is not reachable");
        } catch (TimeoutException e) {
            throw notReady("Kafka did not answer within " + TIMEOUT.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notReady("the server is shutting down");
        }
    }

    private static ApiException notReady(String detail) {
        log.debug("not ready: {}", detail);
        return ApiException.unavailable("Not ready", detail, IngestRoutes.RETRY_AFTER_SECONDS);
    }

    @Override
    public void close() {
        admin.close(TIMEOUT);
    }
}
