package io.readmark.processor;

import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.commit.ThreadChanges;
import io.readmark.processor.deadletters.DeadLetters;
import io.readmark.processor.deadletters.RejectedRecords;
import io.readmark.processor.fanout.FanoutJobs;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.DeletedBlogs;
import io.readmark.processor.graph.FollowerGraph;
import io.readmark.processor.graph.RecentPosts;
import io.readmark.schemas.BlogEvent;
import io.readmark.schemas.Event;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;

import java.util.function.Function;

/**
 * The stream processor's main topology. Follow and blog events are checked where they arrive and re-partitioned by
 * author onto one internal topic ({@link AuthorPartitions}), so an author's follows and posts meet in one task with
 * the follower graph whatever partitions the producers chose; read events, keyed by user, need no author and are
 * applied where they arrive. Big-V fan-outs leave as chunks on the fan-out topic. Records arrive as raw bytes so that
 * a bad one is dead-lettered instead of failing deserialization. Notice events, keyed by audience or notice, are
 * applied where they arrive too. A rebuild runs the paths one after the other ({@link #authorEvents}, then
 * {@link #noticeEvents}, then {@link #readEvents}), with its own handling of bad records and the same
 * {@link EventTimeLimit}. Every node and the internal topic are named, so their names survive changes to this class.
 */
public final class UnreadTopology {

    static final String FOLLOW_EVENTS = "follow-events";
    static final String BLOG_EVENTS = "blog-events";
    static final String READ_EVENTS = "read-events";
    /** Where the checked follow and blog events meet before the re-partitioning. */
    static final String CHECKED_AUTHOR_EVENTS = "author-events-checked";
    static final String AUTHOR_EVENTS = "author-events-processor";
    static final String FANOUT_SINK = "fanout-chunks";
    static final String NOTICE_EVENTS = "notice-events";
    static final String NOTICE_FANOUT_SINK = "notice-fanout-chunks";

    private UnreadTopology() {
    }

    /** The internal topic on which an application's follow and blog events are re-partitioned by author. */
    public static String authorEventsTopic(String applicationId) {
        return AuthorPartitions.topic(applicationId);
    }

    public static Topology build(Topics topics, EventTimeLimit eventTimes, int authorPartitions, ThreadChanges writers,
                                 ThreadCommits commits, FanoutSettings fanout, ProcessorMeters meters) {
        StreamsBuilder builder = new StreamsBuilder();
        RejectedRecords.Route deadLetters = DeadLetters.route(topics.deadLetters().name(), meters::deadLettered);
        addAuthorPath(builder, topics, eventTimes, authorPartitions, writers, commits, fanout, meters, deadLetters);
        addReadPath(builder, topics, eventTimes, writers, deadLetters);
        addNoticePath(builder, topics, eventTimes, writers, fanout, deadLetters);
        return builder.build();
    }

    /** Only the author path: the follower graph, and the fan-out of every publish and delete. */
    public static Topology authorEvents(Topics topics, EventTimeLimit eventTimes, int authorPartitions, ThreadChanges writers,
                                        ThreadCommits commits, FanoutSettings fanout, ProcessorMeters meters,
                                        RejectedRecords.Route badRecords) {
        StreamsBuilder builder = new StreamsBuilder();
        addAuthorPath(builder, topics, eventTimes, authorPartitions, writers, commits, fanout, meters, badRecords);
        return builder.build();
    }

    /** Only the read path: reads and read-alls. */
    public static Topology readEvents(Topics topics, EventTimeLimit eventTimes, ThreadChanges writers,
                                      RejectedRecords.Route badRecords) {
        StreamsBuilder builder = new StreamsBuilder();
        addReadPath(builder, topics, eventTimes, writers, badRecords);
        return builder.build();
    }

    private static void addAuthorPath(StreamsBuilder builder, Topics topics, EventTimeLimit eventTimes, int authorPartitions,
                                      ThreadChanges writers, ThreadCommits commits, FanoutSettings fanout, ProcessorMeters meters,
                                      RejectedRecords.Route badRecords) {
        KStream<byte[], byte[]> follows = addRouting(builder, FOLLOW_EVENTS, topics.followEvents().name(), FollowEvent.class,
                eventTimes, badRecords);
        KStream<byte[], byte[]> blogs = addRouting(builder, BLOG_EVENTS, topics.blogEvents().name(), BlogEvent.class,
                eventTimes, badRecords);
        builder.addStateStore(FollowerGraph.storeBuilder());
        builder.addStateStore(FollowerGraph.countsStoreBuilder());
        builder.addStateStore(DeletedBlogs.storeBuilder());
        builder.addStateStore(RecentPosts.storeBuilder());
        builder.addStateStore(FanoutJobs.storeBuilder());
        RejectedRecords rejects = badRecords.forBranch(AUTHOR_EVENTS);
        KStream<byte[], byte[]> applied = follows.merge(blogs, Named.as(CHECKED_AUTHOR_EVENTS))
                .repartition(AuthorPartitions.repartitioned(authorPartitions))
                .process(() -> new AuthorEventProcessor(writers, eventTimes, rejects, authorPartitions,
                                new FollowEventHandler(fanout, meters::lateFollow),
                                new BlogEventHandler(FANOUT_SINK, fanout, commits, meters.fanoutBacklog())),
                        Named.as(AUTHOR_EVENTS), FollowerGraph.STORE_NAME, FollowerGraph.COUNTS_STORE_NAME,
                        DeletedBlogs.STORE_NAME, RecentPosts.STORE_NAME, FanoutJobs.STORE_NAME);
        applied.to(topics.fanoutChunks().name(), bytes(FANOUT_SINK));
        badRecords.addSink(applied, AUTHOR_EVENTS);
    }

    /** One input topic of the author path: checked, and its valid records passed on for re-partitioning. */
    private static KStream<byte[], byte[]> addRouting(StreamsBuilder builder, String name, String topic,
                                                      Class<? extends Event> type, EventTimeLimit eventTimes,
                                                      RejectedRecords.Route badRecords) {
        return addBranch(builder, name, topic, badRecords,
                rejects -> new AuthorEventRouting(EventDecoder.of(type, eventTimes, rejects), CHECKED_AUTHOR_EVENTS));
    }

    /** Only the notice path: broadcasts, memberships and targeted notices. */
    public static Topology noticeEvents(Topics topics, EventTimeLimit eventTimes, ThreadChanges writers, FanoutSettings fanout,
                                        RejectedRecords.Route badRecords) {
        StreamsBuilder builder = new StreamsBuilder();
        addNoticePath(builder, topics, eventTimes, writers, fanout, badRecords);
        return builder.build();
    }

    /**
     * Notice events need no state and no re-partitioning: each one names its audience or its recipients. Mass sends
     * leave as chunks on the fan-out topic.
     */
    private static void addNoticePath(StreamsBuilder builder, Topics topics, EventTimeLimit eventTimes, ThreadChanges writers,
                                      FanoutSettings fanout, RejectedRecords.Route badRecords) {
        KStream<byte[], byte[]> applied = addBranch(builder, NOTICE_EVENTS, topics.noticeEvents().name(), badRecords,
                rejects -> new NoticeEventProcessor(writers, eventTimes, rejects, fanout.noticeInlineRecipients(), fanout.chunkSize(), NOTICE_FANOUT_SINK));
        applied.to(topics.fanoutChunks().name(), bytes(NOTICE_FANOUT_SINK));
    }

    private static void addReadPath(StreamsBuilder builder, Topics topics, EventTimeLimit eventTimes, ThreadChanges writers,
                                    RejectedRecords.Route badRecords) {
        addBranch(builder, READ_EVENTS, topics.readEvents().name(), badRecords,
                rejects -> new ReadEventProcessor(writers, eventTimes, rejects));
    }

    /**
     * A source of raw records, the processor that decodes them, and where that processor's bad records go; returns the
     * processor's output for further children.
     */
    public static KStream<byte[], byte[]> addBranch(StreamsBuilder builder, String name, String topic, RejectedRecords.Route badRecords,
                                             Function<RejectedRecords, Processor<byte[], byte[], byte[], byte[]>> processor) {
        RejectedRecords rejects = badRecords.forBranch(name);
        KStream<byte[], byte[]> output = builder
                .stream(topic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(name + "-source"))
                .process(() -> processor.apply(rejects), Named.as(name));
        badRecords.addSink(output, name);
        return output;
    }

    /** A sink node of raw records, named so that processors can forward to it by name. */
    public static Produced<byte[], byte[]> bytes(String sinkName) {
        return Produced.<byte[], byte[]>as(sinkName).withKeySerde(Serdes.ByteArray()).withValueSerde(Serdes.ByteArray());
    }
}
