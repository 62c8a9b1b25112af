package io.readmark.processor.rebuild;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.readmark.processor.AuthorPartitions;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.ProcessorMeters;
import io.readmark.processor.StreamProcessor;
import io.readmark.processor.StreamsApp;
import io.readmark.processor.UnreadTopology;
import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.commit.WriterPerThread;
import io.readmark.processor.deadletters.SkippedRecords;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.BigVPolicy;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Repopulates Redis from Kafka: replays every retained event through the processor's own topology, as temporary Kafka
 * Streams applications with fresh ids, until their committed offsets (committed only after Redis acknowledged) reach
 * the end offsets captured at the start; then removes those applications and what earlier killed rebuilds left
 * ({@link RebuildLeftovers}). Three passes in turn: follow and blog events, notice events, then read events, as reads
 * replayed ahead of the deliveries would have their marks trimmed ({@code READMARK_MAX_READ_MARKS_PER_USER}, the
 * notice read marks' bound) and bring read posts or notices back. Big-V authors and mass notice sends are fanned out
 * inline, tombstones are kept for the whole run, and bad records are counted and skipped, not dead-lettered again.
 * Safe while the live processor runs: both write with the same idempotent scripts.
 */
public final class Rebuild {

    /** Told about every few hundred milliseconds how many of the records to replay Redis has acknowledged. */
    @FunctionalInterface
    public interface Listener {
        void progress(long applied, long total, String pass);
    }

    /** {@link #run} stopped because {@link #cancel()} was called; the temporary applications are removed. */
    public static final class CancelledException extends RuntimeException {
        CancelledException() {
            super("rebuild cancelled");
        }
    }

    public static final String AUTHOR_PASS = "follows and posts";
    public static final String NOTICE_PASS = "notices";
    public static final String READ_PASS = "reads";

    private static final Logger log = LoggerFactory.getLogger(Rebuild.class);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    /** Every delete and post of the retained history stays known for the whole replay (the live retentions are wall-clock time). */
    private static final Duration KEEP_FOR_THE_WHOLE_REPLAY = Duration.ofDays(365_000);
    /** {@link RebuildLeftovers} recognises a rebuild's names by this stamp's shape. */
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmssSSS").withZone(ZoneOffset.UTC);
    /** A killed rebuild's groups are empty this long after, and then removed by the next run ({@link RebuildLeftovers}). */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    private static final Set<KafkaStreams.State> STOPPED = Set.of(KafkaStreams.State.PENDING_ERROR, KafkaStreams.State.ERROR,
            KafkaStreams.State.PENDING_SHUTDOWN, KafkaStreams.State.NOT_RUNNING);

    private final ProcessorConfig config;
    private final String rebuildPrefix;
    private final String applicationId;
    private final String noticesApplicationId;
    private final String readsApplicationId;
    private volatile boolean cancelled;

    /** A rebuild whose temporary applications are named after {@code PROCESSOR_APPLICATION_ID} and {@code now}. */
    public Rebuild(ProcessorConfig config, Instant now) {
        this.config = config;
        this.rebuildPrefix = config.applicationId() + "-rebuild-";
        this.applicationId = rebuildPrefix + STAMP.format(now);
        this.noticesApplicationId = applicationId + "-notices";
        this.readsApplicationId = applicationId + "-reads";
    }

    /** The temporary applications (= consumer groups); their internal topics start with the first one and a dash. */
    public List<String> applicationIds() {
        return List.of(applicationId, noticesApplicationId, readsApplicationId);
    }

    /** Stops a running {@link #run} at its next progress check; it then removes what it created and throws. */
    public void cancel() {
        cancelled = true;
    }

    /**
     * Replays everything retained into Redis and cleans up after itself, also when it fails or is cancelled.
     *
     * @throws CancelledException when {@link #cancel()} stopped it
     * @throws IllegalStateException when the topics are missing or the author partitions disagree, or a temporary application fails
     */
    public RebuildSummary run(Listener listener) throws InterruptedException {
        long startNanos = System.nanoTime();
        StreamProcessor.requireTopics(config);
        SkippedRecords skipped = new SkippedRecords();
        try (Admin admin = Admin.create(config.adminProperties());
             RedisConnections redis = RedisConnections.connect(config.redis(), config.redisTimeout(), false)) {
            RebuildLeftovers leftovers = new RebuildLeftovers(admin, rebuildPrefix, config.stateDir());
            List<String> removed = new ArrayList<>(leftovers.remove(applicationId).removed());
            RebuildOffsets authors = RebuildOffsets.capture(admin,
                    List.of(config.topics().followEvents().name(), config.topics().blogEvents().name()));
            RebuildOffsets notices = RebuildOffsets.capture(admin, List.of(config.topics().noticeEvents().name()));
            RebuildOffsets reads = RebuildOffsets.capture(admin, List.of(config.topics().readEvents().name()));
            long total = authors.total() + notices.total() + reads.total();
            log.atInfo().addKeyValue("applicationId", applicationId).addKeyValue("authorRecords", authors.total())
                    .addKeyValue("noticeRecords", notices.total()).addKeyValue("readRecords", reads.total()).log("rebuild starting");
            listener.progress(0, total, AUTHOR_PASS);
            try {
                SimpleMeterRegistry registry = new SimpleMeterRegistry();
                ProcessorMeters meters = new ProcessorMeters(registry);
                UnreadKeys keys = new UnreadKeys(config.redisPrefix());
                if (authors.total() > 0) {
                    WriterPerThread writers = writers(redis, keys);
                    ThreadCommits commits = new ThreadCommits();
                    Topology topology = UnreadTopology.authorEvents(config.topics(), config.eventTimes(), config.authorPartitions(), writers, commits,
                            inlineFanout(), meters, skipped);
                    runPass(admin, new StreamsApp("rebuild of " + AUTHOR_PASS, topology, properties(applicationId), writers,
                            commits, registry), applicationId, authors, List.of(AuthorPartitions.topic(applicationId)), 0, total,
                            AUTHOR_PASS, listener);
                }
                if (notices.total() > 0) {
                    WriterPerThread writers = writers(redis, keys);
                    Topology topology = UnreadTopology.noticeEvents(config.topics(), config.eventTimes(), writers, inlineFanout(), skipped);
                    runPass(admin, new StreamsApp("rebuild of " + NOTICE_PASS, topology, properties(noticesApplicationId), writers,
                            new ThreadCommits(), registry), noticesApplicationId, notices, List.of(), authors.total(), total,
                            NOTICE_PASS, listener);
                }
                if (reads.total() > 0) {
                    WriterPerThread writers = writers(redis, keys);
                    Topology topology = UnreadTopology.readEvents(config.topics(), config.eventTimes(), writers, skipped);
                    runPass(admin, new StreamsApp("rebuild of " + READ_PASS, topology, properties(readsApplicationId), writers,
                            new ThreadCommits(), registry), readsApplicationId, reads, List.of(), authors.total() + notices.total(),
                            total, READ_PASS, listener);
                }
            } finally {
                removeKafkaState(admin);
            }
            // A rebuild killed shortly before this one started had a member then; its session has expired by now.
            RebuildLeftovers.Sweep last = leftovers.remove(applicationId);
            removed.addAll(last.removed());
            listener.progress(total, total, READ_PASS);
            RebuildSummary summary = new RebuildSummary(total, Duration.ofNanos(System.nanoTime() - startNanos),
                    skipped.counts(), skipped.examples(), applicationIds(), removed, last.withMembers());
            log.atInfo().addKeyValue("records", total).addKeyValue("seconds", summary.elapsed().toSeconds())
                    .addKeyValue("skipped", summary.skippedTotal()).log("rebuild done");
            return summary;
        }
    }

    /**
     * Runs one pass until its committed offsets reach the captured ends and then, as everything read before those
     * commits has reached the pass's internal topics, until it has committed those up to their ends of that moment;
     * always closes it and deletes its local state.
     */
    private void runPass(Admin admin, StreamsApp app, String groupId, RebuildOffsets offsets, List<String> internalTopics,
                         long before, long total, String pass, Listener listener) throws InterruptedException {
        try {
            app.start();
            RebuildOffsets internal = null;
            while (true) {
                if (cancelled) throw new CancelledException();
                KafkaStreams.State state = app.state();
                if (STOPPED.contains(state)) {
                    throw new IllegalStateException("the rebuild's Kafka Streams application " + groupId + " stopped (" + state + ")");
                }
                Map<TopicPartition, OffsetAndMetadata> committed = committed(admin, groupId);
                listener.progress(before + offsets.applied(committed), total, pass);
                if (internal == null && offsets.reached(committed)) {
                    if (internalTopics.isEmpty()) return;
                    internal = RebuildOffsets.capture(admin, internalTopics);
                }
                if (internal != null && internal.reached(committed)) return;
                Thread.sleep(POLL);
            }
        } finally {
            app.close();
            app.deleteLocalState();
            RebuildLeftovers.deleteFolder(config.stateDir().resolve(groupId));
        }
    }

    private WriterPerThread writers(RedisConnections redis, UnreadKeys keys) {
        return new WriterPerThread(redis, keys, config.limits(), config.maxPendingWrites(), deliveries -> { }, retried -> { },
                config.waitReplicas(), config.layoutUpgrade());
    }

    /**
     * The live settings, except that no author is big-V, every notice is sent inline and no tombstone or recent post is
     * forgotten during the replay.
     */
    private FanoutSettings inlineFanout() {
        FanoutSettings live = config.fanout();
        return new FanoutSettings(new BigVPolicy(Long.MAX_VALUE, Long.MAX_VALUE), live.chunkSize(), live.chunksPerTick(),
                live.tick(), KEEP_FOR_THE_WHOLE_REPLAY, KEEP_FOR_THE_WHOLE_REPLAY, Integer.MAX_VALUE);
    }

    private Properties properties(String id) {
        Map<String, Object> own = new HashMap<>();
        own.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), (int) SESSION_TIMEOUT.toMillis());
        own.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), (int) SESSION_TIMEOUT.toMillis() / 3);
        own.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // 0: no idling, but a task still waits for data the broker has for an empty partition, so an author's follow
        // and blog partitions are interleaved strictly by record timestamp.
        own.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, 0L);
        // A big-V author's fan-out runs inline, in one process() call; that long a gap between polls is expected here.
        own.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG), (int) Duration.ofHours(1).toMillis());
        Properties props = config.streamsProperties(id, config.streamThreads());
        // Through the client settings again, so one of them the rebuild sets itself is refused, not silently replaced.
        props.putAll(config.kafkaClient().under(own));
        return props;
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String groupId) throws InterruptedException {
        try {
            return admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the committed offsets of " + groupId + ": " + e, e);
        }
    }

    /** Deletes the temporary consumer groups and internal topics; what cannot be deleted is named in the log. */
    private void removeKafkaState(Admin admin) throws InterruptedException {
        for (String group : applicationIds()) deleteGroup(admin, group);
        try {
            List<String> topics = admin.listTopics().names().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).stream()
                    .filter(topic -> topic.startsWith(applicationId + "-")).toList();
            if (!topics.isEmpty()) admin.deleteTopics(topics).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("could not delete the rebuild's internal topics ({}-*): {}", applicationId, e.toString());
        }
    }

    /** A group whose members are still leaving is not empty yet: try again for a while. */
    private static void deleteGroup(Admin admin, String group) throws InterruptedException {
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            try {
                admin.deleteConsumerGroups(List.of(group)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof GroupIdNotFoundException) return;
                if (!(e.getCause() instanceof GroupNotEmptyException) || System.nanoTime() > deadline) {
                    log.warn("could not delete the rebuild's consumer group {}: {}", group, e.getCause().toString());
                    return;
                }
                Thread.sleep(POLL);
            } catch (TimeoutException e) {
                log.warn("could not delete the rebuild's consumer group {}: {}", group, e.toString());
                return;
            }
        }
    }
}
