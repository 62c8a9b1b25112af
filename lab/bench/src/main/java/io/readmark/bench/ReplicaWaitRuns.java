package io.readmark.bench;

import io.readmark.client.EventPublisher;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import org.apache.kafka.clients.producer.RecordMetadata;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs of the whole pipeline at one {@code READMARK_REDIS_WAIT_REPLICAS} each: the processor started with it, the
 * workload's posts published again as new ones and timed until every delivery is counted in Redis
 * ({@link PipelinePhase}), then every user reads everything, then an idle window of normal authors' probe posts timed
 * from publish to visible ({@link VisibilityProbes}); each window with the replication it saw. The probe authors post
 * only probes: their followers read them dated now, a floor that would hide their workload posts, dated in 2026.
 */
final class ReplicaWaitRuns {

    /** One run: its setting, the pipeline and the idle window, and the replication during each. */
    record Result(int waitReplicas, PipelinePhase.Result pipeline, ReplicationMeter.Replication pipelineReplication,
                  VisibilityProbes.Latencies idle, CpuUsage idleCpu, ReplicationMeter.Replication idleReplication) {

        double deliveriesPerSecond() {
            return pipeline.perSecond();
        }

        double p50Millis() {
            return idle.all().getValueAtPercentile(50) / 1000.0;
        }

        double p99Millis() {
            return idle.all().getValueAtPercentile(99) / 1000.0;
        }

        /**
         * Why a neighbour or the JIT disturbed this run, or null. The replica is the bench's own process: its CPU is
         * not counted as another process's.
         */
        String disturbance() {
            String pipelineDisturbance = pipeline.cpu().excluding(pipelineReplication.replicaCores()).disturbance();
            if (pipelineDisturbance != null) return pipelineDisturbance + " in the pipeline";
            String idleDisturbance = idleCpu.excluding(idleReplication.replicaCores()).disturbance();
            return idleDisturbance == null ? null : idleDisturbance + " in the idle window";
        }
    }

    private static final Duration READ_TIMEOUT = Duration.ofMinutes(5);

    private final BenchConfig config;
    private final PowerLawGraph graph;
    private final Workload workload;
    private final RestartingProcessor processor;
    private final EventPublisher bulk;
    private final EventPublisher probePublisher;
    private final List<VisibilityProbes.ProbeAuthor> probeAuthors;
    private final VisibilityProbes probes;
    private final RedisConnections master;
    private final RedisConnections replica;
    private final RedisStats stats;
    private final UnreadKeys keys;
    private final PrintStream err;
    private int runs;

    ReplicaWaitRuns(BenchConfig config, Workload workload, int partitions, RestartingProcessor processor, EventPublisher bulk,
                    EventPublisher probePublisher, RedisConnections master, RedisConnections replica, RedisStats stats,
                    UnreadKeys keys, PrintStream err) {
        this.config = config;
        this.graph = workload.graph();
        this.processor = processor;
        this.bulk = bulk;
        this.probePublisher = probePublisher;
        this.probeAuthors = LatencyPhase.normalAuthors(graph, config.normalFollowers(), config.probeAuthors(), partitions);
        this.workload = workload.without(probeAuthors.stream().map(VisibilityProbes.ProbeAuthor::authorId).collect(Collectors.toSet()));
        this.probes = new VisibilityProbes(probePublisher, master, keys, probeAuthors, LatencyPhase.PROBE_FIRST_BLOG);
        this.master = master;
        this.replica = replica;
        this.stats = stats;
        this.keys = keys;
        this.err = err;
    }

    /** The posts of one run, the probe authors' left out. */
    Workload workload() {
        return workload;
    }

    /** Restarts the processor with {@code waitReplicas} and measures a run on new posts. */
    Result measure(int waitReplicas) throws Exception {
        int run = runs++;
        String label = "replicas-" + run;
        Workload posts = workload.repetition(run);
        long start = System.nanoTime();
        processor.start(waitReplicas);
        err.printf(Locale.ROOT, "replicas: run %d, WAIT %d, the processor started in %.1f s%n", run, waitReplicas,
                (System.nanoTime() - start) / 1e9);
        PipelinePhase.Result pipeline;
        ReplicationMeter.Replication pipelineReplication;
        try (ReplicationMeter meter = ReplicationMeter.start(master, replica)) {
            pipeline = PipelinePhase.run(bulk, stats, keys, posts, err);
            pipelineReplication = meter.stop();
        }
        readEverything(posts, label);
        VisibilityProbes.Latencies idle;
        CpuUsage idleCpu;
        ReplicationMeter.Replication idleReplication;
        try (ReplicationMeter meter = ReplicationMeter.start(master, replica)) {
            CpuUsage.Meter cpu = CpuUsage.start(stats);
            idle = LatencyPhase.idle(config, probes, err);
            idleCpu = cpu.stop();
            idleReplication = meter.stop();
        }
        return new Result(waitReplicas, pipeline, pipelineReplication, idle, idleCpu, idleReplication);
    }

    /**
     * Leaves nothing unread, so that every run writes to the same state and no user's unread reach the per-user cap,
     * which would trim deliveries the pipeline counts: every user reads all up to the run's newest post (a floor below
     * the next run's posts, a repetition's stride later), and the probe authors' followers read those authors' posts.
     */
    private void readEverything(Workload posts, String label) throws Exception {
        Instant readAt = posts.newest();
        List<CompletableFuture<RecordMetadata>> sent = new ArrayList<>();
        for (long user = 1; user <= graph.users(); user++) sent.add(bulk.allReadAsync(label + "-all-read-" + user, user, readAt));
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(READ_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        LatencyPhase.readProbePosts(graph, probeAuthors, probePublisher, master, keys, label, err);
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        for (long unread; (unread = stats.visibleDeliveries(keys, 1, graph.users())) > 0; ) {
            if (System.nanoTime() > deadline) throw new IllegalStateException(unread + " deliveries still unread after " + READ_TIMEOUT);
            Thread.sleep(100); // polling: nothing tells when the processor applied the reads
        }
    }
}
