package io.readmark.reliability;

import io.readmark.schemas.Topics;

import java.util.UUID;

/**
 * Topic names, Redis key prefix and application id of one harness run, all derived from one run id, so that runs
 * sharing a Kafka and a Redis never see each other's records, keys or consumer groups.
 */
public record RunNames(String runId) {

    public RunNames {
        if (!runId.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("run id must be lower-case letters, digits and dashes, was '" + runId + "'");
        }
    }

    /** A new run id starting with {@code label}. */
    public static RunNames random(String label) {
        return new RunNames(label + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    public Topics topics() {
        return Topics.named("blog-events-" + runId, "follow-events-" + runId, "read-events-" + runId,
                "dlq-" + runId, "fanout-" + runId, "notice-events-" + runId);
    }

    public String redisPrefix() {
        return runId;
    }

    /** The main application's id, which is also its consumer group. */
    public String applicationId() {
        return runId;
    }

    /** The big-V fan-out worker's application id (the processor appends {@code -fanout}). */
    public String fanoutApplicationId() {
        return runId + "-fanout";
    }
}
