package io.readmark.processor;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code /health/live} and {@code /health/ready} of the stream processor. Ready only while every Kafka Streams
 * application is RUNNING: waiting for Redis (the applications start once it answers), starting, rebalancing,
 * restoring state, failed or shut down are all not ready.
 */
final class HealthRoutes {

    private static final Map<String, String> UP = Map.of("status", "UP");
    private static final int RETRY_AFTER_SECONDS = 5;

    static final String WAITING_FOR_REDIS = "waiting for Redis to answer; nothing is consumed until it does";

    private final Supplier<List<StreamsApp>> apps;

    /** @param apps the applications, none while Redis has not answered yet */
    HealthRoutes(Supplier<List<StreamsApp>> apps) {
        this.apps = apps;
    }

    /** The JVM is up; a restart would not fix Kafka or Redis trouble, which Kafka Streams rides out itself. */
    Response live(Request request) {
        return Response.ok(UP);
    }

    Response ready(Request request) {
        List<StreamsApp> current = apps.get();
        if (current.isEmpty()) throw ApiException.unavailable("Not ready", WAITING_FOR_REDIS, RETRY_AFTER_SECONDS);
        if (StreamsApp.allRunning(current)) return Response.ok(UP);
        throw ApiException.unavailable("Not ready", "not every Kafka Streams application is RUNNING: "
                + StreamsApp.describe(current), RETRY_AFTER_SECONDS);
    }
}
