package io.readmark.processor;

import io.readmark.schemas.Topics;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/**
 * The stream processor's main topology. Follow and blog events share the follower graph, so they form one
 * sub-topology and must be co-partitioned by author; read events are their own sub-topology keyed by user.
 * Big-V fan-outs leave as chunks on the fan-out topic. Records arrive as raw bytes so that a bad one is
 * dead-lettered instead of failing deserialization.
 */
public final class UnreadTopology {

    static final String FOLLOW_EVENTS = "follow-events";
    static final String BLOG_EVENTS = "blog-events";
    static final String READ_EVENTS = "read-events";
    static final String FANOUT_SINK = "fanout-chunks";

    private UnreadTopology() {
    }

    public static Topology build(Topics topics, ThreadWriters writers, ThreadCommits commits, FanoutSettings fanout,
                                 ProcessorMeters meters) {
        Topology topology = new Topology();
        addEventBranch(topology, FOLLOW_EVENTS, topics.followEvents().name(), topics,
                () -> new FollowEventProcessor(writers, new DeadLetters(FOLLOW_EVENTS, meters), fanout.policy()));
        addEventBranch(topology, BLOG_EVENTS, topics.blogEvents().name(), topics,
                () -> new BlogEventProcessor(writers, new DeadLetters(BLOG_EVENTS, meters), FANOUT_SINK, fanout, commits,
                        meters.fanoutBacklog()));
        addEventBranch(topology, READ_EVENTS, topics.readEvents().name(), topics,
                () -> new ReadEventProcessor(writers, new DeadLetters(READ_EVENTS, meters)));
        topology.addSink(FANOUT_SINK, topics.fanoutChunks().name(), new ByteArraySerializer(), new ByteArraySerializer(), BLOG_EVENTS);
        topology.addStateStore(FollowerGraph.storeBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(FollowerGraph.countsStoreBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(DeletedBlogs.storeBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(RecentPosts.storeBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(FanoutJobs.storeBuilder(), BLOG_EVENTS);
        return topology;
    }

    /** A source of raw records, the processor that decodes them, and that processor's own dead-letter sink. */
    static void addEventBranch(Topology topology, String name, String topic, Topics topics,
                               ProcessorSupplier<byte[], byte[], byte[], byte[]> processor) {
        String source = name + "-source";
        topology.addSource(source, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topic);
        topology.addProcessor(name, processor, source);
        topology.addSink(DeadLetters.sinkFor(name), topics.deadLetters().name(),
                new ByteArraySerializer(), new ByteArraySerializer(), name);
    }
}
