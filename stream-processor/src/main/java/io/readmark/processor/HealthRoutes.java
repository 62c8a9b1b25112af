package io.readmark.processor;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;

import java.util.List;
import java.util.Map;

/**
 * {@code /health/live} and {@code /health/ready} of the stream processor. Ready only while every Kafka Streams
 * application is RUNNING: starting, rebalancing, restoring state, failed or shut down are all not ready.
 */
final class HealthRoutes {

    private static final Map<String, String> UP = Map.of("status", "UP");
    private static final int RETRY_AFTER_SECONDS = 5;

    private final List<StreamsApp> apps;

    HealthRoutes(List<StreamsApp> apps) {
        this.apps = List.copyOf(apps);
    }

    /** The JVM is up; a restart would not fix Kafka or Redis trouble, which Kafka Streams rides out itself. */
    Response live(Request request) {
        return Response.ok(UP);
    }

    Response ready(Request request) {
        if (StreamsApp.allRunning(apps)) return Response.ok(UP);
        throw ApiException.unavailable("Not ready", "not every Kafka Streams application is RUNNING: "
                + StreamsApp.describe(apps), RETRY_AFTER_SECONDS);
    }
}
