package io.readmark.processor;

import io.readmark.schemas.Topics;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;

import java.time.Duration;

/**
 * The stream processor's topology. Follow and blog events share the follower store, so they form one
 * sub-topology and must be co-partitioned by author; read events are their own sub-topology keyed by user.
 * Records arrive as raw bytes so that a bad one is dead-lettered instead of failing deserialization.
 */
public final class UnreadTopology {

    static final String FOLLOW_EVENTS = "follow-events";
    static final String BLOG_EVENTS = "blog-events";
    static final String READ_EVENTS = "read-events";

    private UnreadTopology() {
    }

    /**
     * @param tombstoneRetention how long a deleted blog is remembered, so a publish arriving after its delete
     *                           is dropped
     */
    public static Topology build(Topics topics, ThreadWriters writers, Duration tombstoneRetention) {
        Topology topology = new Topology();
        addEventBranch(topology, FOLLOW_EVENTS, topics.followEvents().name(), topics,
                () -> new FollowEventProcessor(writers, DeadLetters.sinkFor(FOLLOW_EVENTS)));
        addEventBranch(topology, BLOG_EVENTS, topics.blogEvents().name(), topics,
                () -> new BlogEventProcessor(writers, DeadLetters.sinkFor(BLOG_EVENTS), tombstoneRetention));
        addEventBranch(topology, READ_EVENTS, topics.readEvents().name(), topics,
                () -> new ReadEventProcessor(writers, DeadLetters.sinkFor(READ_EVENTS)));
        topology.addStateStore(FollowerGraph.storeBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(DeletedBlogs.storeBuilder(), BLOG_EVENTS);
        return topology;
    }

    private static void addEventBranch(Topology topology, String name, String topic, Topics topics,
                                       org.apache.kafka.streams.processor.api.ProcessorSupplier<byte[], byte[], byte[], byte[]> processor) {
        String source = name + "-source";
        topology.addSource(source, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topic);
        topology.addProcessor(name, processor, source);
        topology.addSink(DeadLetters.sinkFor(name), topics.deadLetters().name(),
                new ByteArraySerializer(), new ByteArraySerializer(), name);
    }
}
