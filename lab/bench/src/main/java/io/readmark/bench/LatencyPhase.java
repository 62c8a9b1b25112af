package io.readmark.bench;

import io.readmark.client.EventPublisher;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.utils.Utils;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Whether a big-V fan-out holds up everyone else: publish-to-visible latency of normal authors' posts (about
 * {@code normalFollowers} followers, taken from the platform graph), on an idle pipeline and while a big-V author's
 * posts fan out to a large audience, in interleaved rounds (idle, big-V, idle, big-V, …) so that each round's ratio
 * compares two windows the machine was in the same state for. A big-V window runs from its publish until its last
 * post is visible to its highest-id follower, the last one its fan-out reaches, confirmed by counting every
 * delivery; every probe issued in the window counts. A round {@linkplain CpuUsage#disturbed() disturbed} by processes
 * outside the bench in any of its windows is run again, up to as many extra times as there are rounds: a p99 over a
 * few hundred probes is what a neighbour's burst moves most.
 */
final class LatencyPhase {

    /** One idle window, the big-V window after it, and the delete of the big-V's newest post after that. */
    record Round(VisibilityProbes.Latencies idle, CpuUsage idleCpu, VisibilityProbes.Latencies duringBigv, CpuUsage bigvCpu,
                 double bigvWindowSeconds, long bigvDeliveries, BigvDelete delete) {

        double idleP99Millis() {
            return idle.all().getValueAtPercentile(99) / 1000.0;
        }

        double bigvP99Millis() {
            return duringBigv.all().getValueAtPercentile(99) / 1000.0;
        }

        boolean disturbed() {
            return idleCpu.disturbed() || bigvCpu.disturbed() || delete.cpu().disturbed();
        }

        /** Other processes' cores in each window if they disturbed it (see {@link #disturbed()}), or null. */
        String disturbance() {
            return disturbed() ? String.format(Locale.ROOT, "other processes (idle %.2f, big-V %.2f, delete %.2f cores)",
                    idleCpu.otherCores(), bigvCpu.otherCores(), delete.cpu().otherCores()) : null;
        }
    }

    /** The rounds kept, and how many were run again or kept though disturbed (the extra runs used up). */
    record Result(List<Round> rounds, Duration bigvLoad, List<VisibilityProbes.ProbeAuthor> probeAuthors, int bigvPartition,
                  int roundsRunAgain, int disturbedKept) {
    }

    /** Far above every platform id, so the big-V and the probe posts never collide with the workload. */
    static final long BIGV_AUTHOR = 2_000_000_000L;
    private static final long BIGV_FIRST_BLOG = 8_000_000_000L;
    static final long PROBE_FIRST_BLOG = 9_000_000_000L;
    private static final Duration BIGV_TIMEOUT = Duration.ofMinutes(10);

    private LatencyPhase() {
    }

    /** {@code groups}: how the big-V worker splits the audience into scripts, which the progress bars count. */
    static Result run(BenchConfig config, PowerLawGraph graph, EventPublisher probePublisher, GraphLoader loader,
                      RedisConnections redis, RedisStats stats, UnreadKeys keys, int partitions, ScriptGroups groups,
                      PrintStream err) throws Exception {
        List<VisibilityProbes.ProbeAuthor> authors = normalAuthors(graph, config.normalFollowers(), config.probeAuthors(), partitions);
        VisibilityProbes probes = new VisibilityProbes(probePublisher, redis, keys, authors, PROBE_FIRST_BLOG);
        int audience = config.bigvFollowers();
        Duration load = loader.load("big-V", audience, sink -> {
            for (long follower = 1; follower <= audience; follower++) sink.follow(BIGV_AUTHOR, follower);
        }, err);
        // One unmeasured round first: right after loading the audience the stores are still settling (compactions,
        // changelog flushes) and the worker's code is cold.
        idle(config, probes, err);
        bigvWindow(config, "warm-up", 0, 0, 1, probePublisher, probes, redis, stats, keys, groups, err);
        long published = 1, deleted = 0;
        List<Round> rounds = new ArrayList<>();
        RunsAgain runsAgain = new RunsAgain("latency", config.latencyRounds(), err);
        while (rounds.size() < config.latencyRounds()) {
            String label = (rounds.size() + 1) + runsAgain.attemptSuffix();
            readProbePosts(graph, authors, probePublisher, redis, keys, label, err);
            VisibilityProbes.Latencies idle;
            CpuUsage idleCpu;
            // Recording starts before the window's meter and is written after it, so neither counts in the window.
            try (PhaseRecording recording = PhaseRecording.start(config.jfrDirectory(), "latency-idle-" + label, err)) {
                CpuUsage.Meter idleMeter = CpuUsage.start(stats);
                idle = idle(config, probes, err);
                idleCpu = idleMeter.stop();
            }
            BigvWindow bigv = bigvWindow(config, label, published, published - deleted, config.bigvPosts(),
                    probePublisher, probes, redis, stats, keys, groups, err);
            published += config.bigvPosts();
            deleted++;
            BigvDelete delete = bigvDelete(config, BIGV_FIRST_BLOG + published - 1, published - deleted, probePublisher, redis, stats, keys,
                    groups, err);
            Round round = new Round(idle, idleCpu, bigv.during(), bigv.cpu(), bigv.seconds(), bigv.deliveries(), delete);
            err.printf("latency round %s: normal p99 idle %.1f ms (%s), during big-V %.1f ms (%s), %,.0f deliveries/s%n", label,
                    round.idleP99Millis(), idleCpu, round.bigvP99Millis(), bigv.cpu(), bigv.deliveries() / bigv.seconds());
            if (!runsAgain.shouldRunAgain(rounds.size() + 1, round.disturbance())) rounds.add(round);
        }
        return new Result(rounds, load, authors, partitionOf(BIGV_AUTHOR, partitions), runsAgain.repetitionsRunAgain(),
                runsAgain.disturbedKept());
    }

    /**
     * The probe authors' followers read everything of those authors so far (one author-read-all per pair, the write
     * phases' posts included), and this waits until the pipeline has applied it, so that every round starts from one
     * state. A probe author posts several times a second: left unread, its followers' sets would grow round by round up
     * to the cap of unread per author, and Redis would spend more on each round's probes than on the round before.
     */
    static void readProbePosts(PowerLawGraph graph, List<VisibilityProbes.ProbeAuthor> authors, EventPublisher publisher,
                                       RedisConnections redis, UnreadKeys keys, String label, PrintStream err) throws Exception {
        Instant readAt = Instant.now();
        List<CompletableFuture<RecordMetadata>> sent = new ArrayList<>();
        for (VisibilityProbes.ProbeAuthor author : authors) {
            int id = (int) author.authorId();
            graph.forEachFollower(id, follower -> sent.add(
                    publisher.authorReadAllAsync("probe-read-" + label + "-" + follower + "-" + id, follower, id, readAt)));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(BIGV_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        long deadline = System.nanoTime() + BIGV_TIMEOUT.toNanos();
        try (RedisConnections.Connection watch = redis.open()) {
            while (anyUnread(graph, authors, watch, keys)) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("probe authors' posts still unread after " + BIGV_TIMEOUT);
                Thread.sleep(100);
            }
        }
        // The read-alls' floors cover readAt's whole second (counters.lua): a probe posted in it would stay out, so the
        // round's probes start in the next second.
        long nextSecond = TimeUnit.SECONDS.toMillis(readAt.getEpochSecond() + 1);
        for (long now; (now = System.currentTimeMillis()) < nextSecond; ) Thread.sleep(nextSecond - now);
        err.printf("latency round %s: %,d (follower, probe author) pairs read%n", label, sent.size());
    }

    /** Whether a follower of a probe author still has one of its posts unread (the author's field of h is gone at zero). */
    private static boolean anyUnread(PowerLawGraph graph, List<VisibilityProbes.ProbeAuthor> authors,
                                     RedisConnections.Connection watch, UnreadKeys keys) {
        for (VisibilityProbes.ProbeAuthor author : authors) {
            int id = (int) author.authorId();
            for (int i = 0; i < graph.followerCount(id); i++) {
                if (watch.sync().hexists(keys.h(graph.follower(id, i)), Long.toString(id))) return true;
            }
        }
        return false;
    }

    /** Nothing else runs: the probes' own fan-outs are the only load. */
    static VisibilityProbes.Latencies idle(BenchConfig config, VisibilityProbes probes, PrintStream err) throws InterruptedException {
        long idleUntil = System.nanoTime() + config.idleDuration().toNanos();
        try (ProgressBar bar = new ProgressBar(err, "idle", config.idleDuration().toMillis(), "ms of probes")) {
            return probes.run(config.probeInterval(), () -> {
                bar.update(config.idleDuration().toMillis() - Math.max(0, (idleUntil - System.nanoTime()) / 1_000_000));
                return System.nanoTime() < idleUntil;
            });
        }
    }

    /** Probe latencies while the big-V's posts fanned out, and how long that took for how many deliveries. */
    private record BigvWindow(VisibilityProbes.Latencies during, CpuUsage cpu, double seconds, long deliveries) {
    }

    /**
     * The big-V publishes {@code posts} new posts after the {@code published} ones; probes run until all of them are
     * visible to the whole audience (the {@code unread} earlier posts not deleted stay unread, so the count to reach
     * includes theirs).
     */
    private static BigvWindow bigvWindow(BenchConfig config, String label, long published, long unread, int posts, EventPublisher probePublisher,
                                         VisibilityProbes probes, RedisConnections redis, RedisStats stats, UnreadKeys keys,
                                         ScriptGroups groups, PrintStream err) throws Exception {
        int audience = config.bigvFollowers();
        long firstPost = BIGV_FIRST_BLOG + published;
        long lastPost = firstPost + posts - 1;
        String lastKey = keys.z(audience);
        long perRound = (long) posts * audience;
        long expected = (unread + posts) * audience;
        long[] windowEnd = {0};
        long start;
        long visible;
        VisibilityProbes.Latencies during;
        CpuUsage bigvCpu;
        // As for the idle window: recording starts before the meter and is written after it.
        try (PhaseRecording recording = PhaseRecording.start(config.jfrDirectory(), "latency-bigv-" + label, err)) {
            CpuUsage.Meter bigvMeter = CpuUsage.start(stats);
            start = System.nanoTime();
            for (long blog = firstPost; blog <= lastPost; blog++) {
                probePublisher.blogPublishedAsync("bigv-" + blog, blog, BIGV_AUTHOR, Instant.now());
            }
            long deadline = start + BIGV_TIMEOUT.toNanos();
            try (RedisConnections.Connection watch = redis.open();
                 ProgressBar bar = new ProgressBar(err, "big-V", perRound, "deliveries (approx.)")) {
                long scripts = posts * groups.scripts(audience);
                long calls = stats.scriptCalls();
                during = probes.run(config.probeInterval(), () -> {
                    if (windowEnd[0] != 0) return false;
                    if (System.nanoTime() > deadline) throw new IllegalStateException("big-V fan-out not done within " + BIGV_TIMEOUT);
                    bar.update(Math.min(perRound, perRound * (stats.scriptCalls() - calls) / scripts));
                    if (watch.sync().zscore(lastKey, Long.toString(lastPost)) != null) windowEnd[0] = System.nanoTime();
                    return windowEnd[0] == 0;
                });
            }
            // The highest follower is the last one reached only if the fan-out goes in follower order, as it does;
            // the count decides, and a fan-out that finishes elsewhere later extends the window to when it did.
            visible = stats.visibleDeliveriesOf(keys, BIGV_AUTHOR, 1, audience);
            while (visible < expected) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("big-V: " + visible + " of " + expected + " deliveries visible");
                Thread.sleep(100);
                visible = stats.visibleDeliveriesOf(keys, BIGV_AUTHOR, 1, audience);
                windowEnd[0] = System.nanoTime();
            }
            bigvCpu = bigvMeter.stop();
        }
        if (visible != expected) {
            throw new IllegalStateException("big-V: " + visible + " deliveries visible, expected " + expected);
        }
        return new BigvWindow(during, bigvCpu, (windowEnd[0] - start) / 1e9, perRound);
    }

    /** How long the delete of a big-V post took to reach the whole audience, and the CPU it took. */
    record BigvDelete(double seconds, long removals, CpuUsage cpu) {

        double removalsPerSecond() {
            return removals / seconds;
        }

        /** Redis CPU per follower the post was removed for: nothing else writes in the window. */
        double redisMicrosPerRemoval() {
            return cpu.redisCores() * cpu.seconds() / removals * 1e6;
        }
    }

    /**
     * The big-V deletes {@code blog}, its newest post, and the removal fans out to the whole audience, without probes,
     * until every follower's count of the big-V's posts is {@code unreadAfter}. Timed from the delete to the last
     * follower's tombstone of the blog (one ZSCORE a poll: counting every follower's entries as the signal would be Redis
     * work of its own in the window); the count then confirms it, and a removal still running elsewhere (chunks go to
     * several partitions) extends the window, counts included, to when it is done.
     */
    private static BigvDelete bigvDelete(BenchConfig config, long blog, long unreadAfter, EventPublisher publisher,
                                         RedisConnections redis, RedisStats stats, UnreadKeys keys, ScriptGroups groups,
                                         PrintStream err) throws Exception {
        int audience = config.bigvFollowers();
        long expected = unreadAfter * audience;
        String lastZ = keys.z(audience);
        String member = Long.toString(blog);
        long deadline = System.nanoTime() + BIGV_TIMEOUT.toNanos();
        CpuUsage.Meter meter = CpuUsage.start(stats);
        long start = System.nanoTime();
        publisher.blogDeletedAsync("bigv-delete-" + blog, blog, BIGV_AUTHOR, Instant.now());
        try (RedisConnections.Connection watch = redis.open();
             ProgressBar bar = new ProgressBar(err, "big-V delete", audience, "followers (approx.)")) {
            long scripts = groups.scripts(audience);
            long calls = stats.scriptCalls();
            // The blog turns from an unread entry (score <= 0) into a tombstone (> 0).
            for (Double score; (score = watch.sync().zscore(lastZ, member)) == null || score <= 0; ) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("big-V delete not done within " + BIGV_TIMEOUT);
                bar.update(Math.min(audience, audience * (stats.scriptCalls() - calls) / scripts));
                Thread.sleep(5);
            }
        }
        long end = System.nanoTime();
        CpuUsage cpu = meter.stop();
        long visible = stats.visibleDeliveriesOf(keys, BIGV_AUTHOR, 1, audience);
        if (visible > expected) {
            while (visible > expected) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("big-V delete: " + visible + " entries left, expected " + expected);
                Thread.sleep(100);
                visible = stats.visibleDeliveriesOf(keys, BIGV_AUTHOR, 1, audience);
            }
            end = System.nanoTime();
            cpu = meter.stop();
        }
        if (visible != expected) throw new IllegalStateException("big-V delete: " + visible + " entries left, expected " + expected);
        return new BigvDelete((end - start) / 1e9, audience, cpu);
    }

    /** Authors whose follower count is closest to {@code target} (a small graph may have none at exactly that). */
    static List<VisibilityProbes.ProbeAuthor> normalAuthors(PowerLawGraph graph, int target, int count, int partitions) {
        return IntStream.rangeClosed(1, graph.authors())
                .filter(a -> graph.followerCount(a) > 0)
                .boxed()
                .sorted(Comparator.comparingInt((Integer a) -> Math.abs(graph.followerCount(a) - target)).thenComparingInt(a -> a))
                .limit(count)
                .map(a -> new VisibilityProbes.ProbeAuthor(a, graph.follower(a, graph.followerCount(a) - 1),
                        graph.followerCount(a), partitionOf(a, partitions)))
                .toList();
    }

    /** The partition Kafka's default partitioner picks for this id as a record key (murmur2 of the decimal string). */
    static int partitionOf(long id, int partitions) {
        return Utils.toPositive(Utils.murmur2(Long.toString(id).getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
