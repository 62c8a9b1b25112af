package io.readmark.processor;

import io.readmark.schemas.Topics;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;

import java.util.function.Function;

/**
 * The stream processor's main topology. Follow and blog events share the follower graph, so they form one
 * sub-topology and must be co-partitioned by author; read events are their own sub-topology keyed by user.
 * Big-V fan-outs leave as chunks on the fan-out topic. Records arrive as raw bytes so that a bad one is
 * dead-lettered instead of failing deserialization. A rebuild runs the two sub-topologies one after the other
 * ({@link #authorEvents}, then {@link #readEvents}), with its own handling of bad records.
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
        RejectedRecords.Route deadLetters = DeadLetters.route(topics.deadLetters().name(), meters);
        addAuthorBranches(topology, topics, writers, commits, fanout, meters, deadLetters);
        addReadBranch(topology, topics, writers, deadLetters);
        return topology;
    }

    /** Only the author-keyed sub-topology: the follower graph, and the fan-out of every publish and delete. */
    static Topology authorEvents(Topics topics, ThreadWriters writers, ThreadCommits commits, FanoutSettings fanout,
                                 ProcessorMeters meters, RejectedRecords.Route badRecords) {
        Topology topology = new Topology();
        addAuthorBranches(topology, topics, writers, commits, fanout, meters, badRecords);
        return topology;
    }

    /** Only the user-keyed sub-topology: reads and read-alls. */
    static Topology readEvents(Topics topics, ThreadWriters writers, RejectedRecords.Route badRecords) {
        Topology topology = new Topology();
        addReadBranch(topology, topics, writers, badRecords);
        return topology;
    }

    private static void addAuthorBranches(Topology topology, Topics topics, ThreadWriters writers, ThreadCommits commits,
                                          FanoutSettings fanout, ProcessorMeters meters, RejectedRecords.Route badRecords) {
        addEventBranch(topology, FOLLOW_EVENTS, topics.followEvents().name(), badRecords,
                rejects -> new FollowEventProcessor(writers, rejects, fanout.policy()));
        addEventBranch(topology, BLOG_EVENTS, topics.blogEvents().name(), badRecords,
                rejects -> new BlogEventProcessor(writers, rejects, FANOUT_SINK, fanout, commits, meters.fanoutBacklog()));
        topology.addSink(FANOUT_SINK, topics.fanoutChunks().name(), new ByteArraySerializer(), new ByteArraySerializer(), BLOG_EVENTS);
        topology.addStateStore(FollowerGraph.storeBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(FollowerGraph.countsStoreBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(DeletedBlogs.storeBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(RecentPosts.storeBuilder(), FOLLOW_EVENTS, BLOG_EVENTS);
        topology.addStateStore(FanoutJobs.storeBuilder(), BLOG_EVENTS);
    }

    private static void addReadBranch(Topology topology, Topics topics, ThreadWriters writers, RejectedRecords.Route badRecords) {
        addEventBranch(topology, READ_EVENTS, topics.readEvents().name(), badRecords,
                rejects -> new ReadEventProcessor(writers, rejects));
    }

    /** A source of raw records, the processor that decodes them, and where that processor's bad records go. */
    static void addEventBranch(Topology topology, String name, String topic, RejectedRecords.Route badRecords,
                               Function<RejectedRecords, Processor<byte[], byte[], byte[], byte[]>> processor) {
        String source = name + "-source";
        topology.addSource(source, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topic);
        RejectedRecords rejects = badRecords.forBranch(name);
        topology.addProcessor(name, () -> processor.apply(rejects), source);
        badRecords.addSink(topology, name);
    }
}
