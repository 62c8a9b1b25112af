package io.readmark.processor.fanout;

import io.readmark.processor.ProcessorMeters;
import io.readmark.processor.UnreadTopology;
import io.readmark.processor.commit.ThreadChanges;
import io.readmark.processor.deadletters.DeadLetters;
import io.readmark.schemas.Topics;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;

/**
 * The big-V worker's topology: fan-out chunks in, Redis writes out. It runs as its own Kafka Streams application
 * with its own threads, so it scales apart from the main processor and never occupies a normal author's task.
 */
public final class FanoutWorkerTopology {

    static final String CHUNKS = "fanout-worker";

    private FanoutWorkerTopology() {
    }

    /** {@code burst}: how many writes the worker sends at a time; it waits until every earlier burst is answered. */
    public static Topology build(Topics topics, ThreadChanges writers, RateLimiter rateLimiter, int burst, FanoutProgress progress,
                                 ProcessorMeters meters) {
        StreamsBuilder builder = new StreamsBuilder();
        UnreadTopology.addBranch(builder, CHUNKS, topics.fanoutChunks().name(), DeadLetters.route(topics.deadLetters().name(), meters::deadLettered),
                rejects -> new FanoutChunkProcessor(writers, rateLimiter, burst, progress, rejects));
        return builder.build();
    }
}
