package io.readmark.bench;

import io.readmark.client.EventPublisher;
import io.readmark.common.config.Settings;
import io.readmark.common.http.HttpLimits;
import io.readmark.infra.EmbeddedKafka;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.launcher.LocalStack;
import io.readmark.processor.ProcessorConfig;
import io.readmark.schemas.Topics;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code readmark bench}: generates the synthetic platform and runs the phases in order — on one Redis, through a
 * full {@link LocalStack}, the Redis ceiling, the naive baseline and the pipeline interleaved, idle and big-V latency
 * interleaved, and the read phases, then memory on a fresh Redis — and writes the report. Always on its own embedded
 * Kafka and Redis on free ports: it empties databases of that Redis, so it must never touch one it did not start.
 */
public final class Bench {

    private static final String APPLICATION_ID = "readmark-bench";
    /**
     * The HTTP servers' idle timeout in the bench, unless set. The servers leave one idle timer per kept-alive request
     * in their event loop's queue, and each fires when its timeout has passed (see docs/BENCHMARKS.md): with the
     * default 75 s, the timers of one read measurement fire while a later one runs and take its CPU. No bench
     * connection waits anywhere near this long between requests.
     */
    static final Duration LONG_IDLE_TIMEOUT = Duration.ofHours(1);

    private Bench() {
    }

    public static BenchReport run(Settings settings, PrintStream out, PrintStream err) throws Exception {
        BenchConfig config = BenchConfig.from(settings);
        CeilingPhase.requireRedisCli();
        long started = System.nanoTime();
        BenchReport report = new BenchReport(Instant.now());
        describeRun(report, config);
        report.run("source", settings.find("BENCH_SOURCE").orElseGet(Bench::gitRevision));
        err.printf("readmark bench (%s): %,d users, %,d authors, ~%.0f follows each (Zipf %.2f), big-V audience %,d; %d cores%n",
                config.mode(), config.users(), config.authors(), config.followsPerUser(), config.exponent(),
                config.bigvFollowers(), Runtime.getRuntime().availableProcessors());

        long graphStart = System.nanoTime();
        PowerLawGraph graph = PowerLawGraph.generate(config.users(), config.authors(), config.followsPerUser(), config.exponent(), config.seed());
        ProcessorConfig processor = ProcessorConfig.from(settings);
        Workload workload = Workload.of(graph, config.postsPerAuthor(), ScriptGroups.of(processor));
        report.run("fanout_burst", processor.fanoutBurst());
        report.detail("graph_generate_s", seconds(graphStart));
        report.detail("graph_edges", graph.edges());
        report.detail("graph_top_author_followers", graph.followerCount(graph.mostFollowedAuthor()));
        report.detail("workload_posts", workload.posts().size());
        report.detail("workload_deliveries", workload.deliveries());

        try (EmbeddedKafka kafka = EmbeddedKafka.start(0);
             EmbeddedRedis redisServer = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(redisServer.url(), Duration.ofSeconds(60), false);
             RedisStats stats = new RedisStats(redis)) {
            report.run("redis_version", stats.version());

            Map<String, String> overrides = new java.util.HashMap<>(Map.of(
                    "KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(), "REDIS_URL", redisServer.url(),
                    "PRODUCER_API_PORT", "0", "VIEW_API_PORT", "0", "PROCESSOR_APPLICATION_ID", APPLICATION_ID));
            if (settings.find(HttpLimits.IDLE_TIMEOUT).isEmpty()) overrides.put(HttpLimits.IDLE_TIMEOUT, LONG_IDLE_TIMEOUT.toString());
            Settings stack = settings.withOverrides(overrides);
            runStackPhases(config, stack, graph, workload, redis, stats, report, err);
        }

        MemoryPhase.Result memory = MemoryPhase.run(MemoryPhase.Population.of(graph, config.memoryUsers(), config.memoryMaxUnread()),
                config.seed(), err);
        report.figure("bytes_per_unread_entry", memory.bytesPerEntry());
        report.detail("memory_entries", memory.entries());
        report.detail("memory_user_author_pairs", memory.pairs());
        report.detail("memory_keys", memory.keys());
        report.detail("memory_used_bytes_delta", memory.usedMemoryDelta());
        reportMemory(report, "memory", memory);
        MemoryPhase.Result heavy = MemoryPhase.run(MemoryPhase.Population.heavy(), config.seed(), err);
        report.figure("bytes_per_unread_entry_heavy", heavy.bytesPerEntry());
        report.detail("memory_heavy_entries", heavy.entries());
        reportMemory(report, "memory_heavy", heavy);

        NoticePublishPhase.Result notices = NoticePublishPhase.run(config, err);
        report.figure("notice_publish_ms", notices.big().p99Millis());
        report.figure("notice_publish_redis_bytes", notices.big().bytesPerPublish());
        report.detail("notice_publish_p50_ms", notices.big().p50Millis().toMap());
        report.detail("notice_publish_small_audience_p99_ms", notices.small().p99Millis().toMap());
        report.detail("notice_publish_small_audience_redis_bytes", notices.small().bytesPerPublish().toMap());
        report.detail("notice_publish_p99_big_over_small", notices.p99Ratio().toMap());
        report.detail("notice_audience_members", notices.members());
        report.detail("notice_audience_join_s", notices.joinSeconds());
        report.detail("notice_set_bytes_per_live_notice", notices.bytesPerLiveNotice());
        report.detail("notice_publish_keys_added", notices.keysAdded());

        report.run("duration_s", seconds(started));
        report.run("loadavg_at_end", loadAverage());
        List<Path> files = report.write(config.outputDir());
        out.print(report.table());
        out.printf("%nwritten: %s%ntook %.0f s%n", files, seconds(started));
        return report;
    }

    /** Where a memory run's bytes per entry go, and the Redis CPU its deliveries took. */
    private static void reportMemory(BenchReport report, String prefix, MemoryPhase.Result result) {
        MemoryPhase.Breakdown breakdown = result.breakdown();
        report.detail(prefix + "_z_bytes_per_entry", breakdown.z());
        report.detail(prefix + "_h_bytes_per_entry", breakdown.h());
        report.detail(prefix + "_rest_bytes_per_entry", breakdown.rest());
        report.detail(prefix + "_entries_per_user_avg", breakdown.entriesPerUserAvg());
        report.detail(prefix + "_z_skiplist_share", breakdown.zSkiplistShare());
        report.detail(prefix + "_h_hashtable_share", breakdown.hHashtableShare());
        report.detail(prefix + "_redis_us_per_delivery", result.redisMicrosPerDelivery());
    }

    private static void runStackPhases(BenchConfig config, Settings stack, PowerLawGraph graph, Workload workload,
                                       RedisConnections redis, RedisStats stats, BenchReport report, PrintStream err) throws Exception {
        int partitions = stack.positiveInteger("READMARK_PARTITIONS", 3);
        UnreadKeys keys = new UnreadKeys(stack.string("READMARK_REDIS_PREFIX", UnreadKeys.DEFAULT_PREFIX));
        int cap = stack.positiveInteger("READMARK_MAX_UNREAD_PER_AUTHOR", 1000);
        // Every repetition adds its posts on top of the earlier ones' (the big-V's after one warm-up post, less the one
        // each round deletes), in up to twice as many runs when disturbed ones are run again: the check counts those.
        if (2L * config.writeRepetitions() * config.postsPerAuthor() >= cap
                || 2L * config.latencyRounds() * config.bigvPosts() + 1 >= cap) {
            throw new IllegalArgumentException("2 x BENCH_WRITE_REPETITIONS x BENCH_POSTS_PER_AUTHOR (and 2 x BENCH_LATENCY_ROUNDS x"
                    + " BENCH_BIGV_POSTS), counting the runs made again, must stay below READMARK_MAX_UNREAD_PER_AUTHOR, or trimming"
                    + " hides deliveries");
        }
        report.run("partitions", partitions);
        report.run("stream_threads", stack.positiveInteger("PROCESSOR_STREAM_THREADS", 2));
        report.run("http_idle_timeout", stack.string(HttpLimits.IDLE_TIMEOUT, HttpLimits.defaults().idleTimeout().toString()));
        String bootstrap = stack.string("KAFKA_BOOTSTRAP_SERVERS", null);
        try (LocalStack local = LocalStack.start(stack);
             EventPublisher bulk = bulkPublisher(bootstrap, local.topics());
             EventPublisher probes = probePublisher(bootstrap, local.topics());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            GraphLoader loader = new GraphLoader(bulk, admin, APPLICATION_ID);
            Duration graphLoad = loader.load(graph, err);
            report.detail("graph_load_s", graphLoad.toMillis() / 1000.0);

            writePhases(report, config, stack, workload, bulk, redis, stats, keys, err);

            LatencyPhase.Result latency = LatencyPhase.run(config, graph, probes, loader, redis, stats, keys, partitions,
                    workload.groups(), err);
            latencyDetails(report, latency);

            ReadApiPhase.Result reads = ReadApiPhase.run(config, local.viewApiUrl(), stack.string("REDIS_URL", null), redis,
                    stats, keys, graph, err);
            readDetails(report, reads.reads());
            // While the stack still runs, so the servers compared see the same background as the counts API.
            InterleavedLoad.Results servers = ServerComparisonPhase.run(config, redis, stats, keys, graph.users(), err);
            for (String server : servers.byVariant().keySet()) {
                report.figure("server_" + server + "_rps", servers.perSecond(server));
                report.figure("server_" + server + "_p99_ms", servers.p99Millis(server));
                cpuDetails(report, "server_" + server, servers, server);
            }
            report.detail("read_repetitions", config.readRepetitions());
            report.detail("read_warmup_rounds", reads.reads().warmupRounds());
            report.detail("server_warmup_rounds", servers.warmupRounds());
            report.detail("read_repetitions_run_again", reads.reads().repetitionsRunAgain());
            report.detail("server_repetitions_run_again", servers.repetitionsRunAgain());
            report.detail("read_repetitions_disturbed_kept", reads.reads().disturbedKept());
            report.detail("server_repetitions_disturbed_kept", servers.disturbedKept());
            report.figure("seed000_counts_rps", reads.seed000().perSecond());
            report.detail("seed000_counts_p99_ms", reads.seed000().p99Millis());
            report.detail("seed000_keyspace_keys", reads.keyspaceKeys());
            report.detail("seed000_isolated_db_counts_rps", reads.seed000Isolated().perSecond());
        }
    }

    /** For bulk loads, which batch. */
    static EventPublisher bulkPublisher(String bootstrap, Topics topics) {
        return EventPublisher.connect(bootstrap, topics, Map.of(ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024));
    }

    /** For latency probes, which must not wait in a batch, or their latency would measure linger.ms. */
    static EventPublisher probePublisher(String bootstrap, Topics topics) {
        return EventPublisher.connect(bootstrap, topics, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
    }

    /**
     * The Redis ceiling (a C client), the naive baseline and the pipeline, interleaved: ceiling, naive, pipeline,
     * ceiling, … Each pipeline run publishes the workload again as new posts; each ceiling run starts from its empty
     * database, which the naive baseline writes to as well. A {@linkplain WriteRound#disturbance() disturbed}
     * repetition is run again, up to as many extra times as there are repetitions, with new posts.
     */
    private static void writePhases(BenchReport report, BenchConfig config, Settings stack, Workload workload,
                                     EventPublisher bulk, RedisConnections redis, RedisStats stats, UnreadKeys keys,
                                     PrintStream err) throws Exception {
        List<CeilingPhase.Result> ceilings = new ArrayList<>();
        List<NaivePhase.Result> naives = new ArrayList<>();
        List<PipelinePhase.Result> pipelines = new ArrayList<>();
        RunsAgain runsAgain = new RunsAgain("writes", config.writeRepetitions(), err);
        int runs = 0;
        try (CeilingPhase ceiling = CeilingPhase.prepare(stack.string("REDIS_URL", null), redis, workload, err)) {
            while (ceilings.size() < config.writeRepetitions()) {
                // New posts in every run, a repetition run again included: each run leaves one more unread post per pair.
                Workload posts = workload.repetition(runs++);
                int repetition = ceilings.size() + 1;
                CeilingPhase.Result ceilingRun = ceiling.run(stats, err);
                NaivePhase.Result naiveRun = NaivePhase.run(ceiling.scratch(), stats, posts, config.naiveDuration(), err);
                PipelinePhase.Result pipelineRun = PhaseRecording.during(config.jfrDirectory(),
                        "pipeline-" + repetition + runsAgain.attemptSuffix(), err, () -> PipelinePhase.run(bulk, stats, keys, posts, err));
                WriteRound round = new WriteRound(ceilingRun, naiveRun, pipelineRun);
                err.printf("writes repetition %d%s: %s%n", repetition, runsAgain.attemptSuffix(), round);
                if (runsAgain.shouldRunAgain(repetition, round.disturbance())) continue;
                ceilings.add(ceilingRun);
                naives.add(naiveRun);
                pipelines.add(pipelineRun);
            }
        }
        report.figure("ceiling_deliveries_per_s", spread(ceilings, WriteMeasurement::perSecond));
        report.figure("pipeline_deliveries_per_s", spread(pipelines, WriteMeasurement::perSecond));
        report.figure("pipeline_ceiling_ratio", Spread.ofRatios(values(pipelines, WriteMeasurement::perSecond),
                values(ceilings, WriteMeasurement::perSecond)));
        report.figure("naive_deliveries_per_s", spread(naives, WriteMeasurement::perSecond));
        report.figure("pipeline_naive_ratio", Spread.ofRatios(values(pipelines, WriteMeasurement::perSecond),
                values(naives, WriteMeasurement::perSecond)));
        phaseDetails(report, "ceiling", ceilings, false);
        phaseDetails(report, "naive", naives, true);
        phaseDetails(report, "pipeline", pipelines, true);
        report.detail("pipeline_all_scripts_run_s", spread(pipelines, PipelinePhase.Result::scriptsDoneSeconds).toMap());
        report.detail("write_repetitions", config.writeRepetitions());
        report.detail("write_repetitions_run_again", runsAgain.repetitionsRunAgain());
        report.detail("write_repetitions_disturbed_kept", runsAgain.disturbedKept());
        report.detail("pipeline_runs", runs); // the unread posts per (user, author) the later phases start from
        report.run("ceiling_client", "redis-cli --pipe");
        config.jfrDirectory().ifPresent(dir -> report.detail("jfr_directory", dir.toString()));
    }

    private static <T> List<Double> values(List<T> runs, java.util.function.ToDoubleFunction<T> value) {
        return runs.stream().map(run -> value.applyAsDouble(run)).toList();
    }

    private static <T> Spread spread(List<T> runs, java.util.function.ToDoubleFunction<T> value) {
        return Spread.of(values(runs, value));
    }

    private static void readDetails(BenchReport report, InterleavedLoad.Results reads) {
        report.figure("counts_api_rps", reads.perSecond(ReadApiPhase.API));
        report.figure("counts_api_p99_ms", reads.p99Millis(ReadApiPhase.API));
        report.figure("counts_raw_rps", reads.perSecond(ReadApiPhase.RAW));
        report.figure("counts_api_raw_ratio", reads.ratio(ReadApiPhase.API, ReadApiPhase.RAW));
        report.detail("counts_raw_p99_ms", reads.p99Millis(ReadApiPhase.RAW).toMap());
        report.figure("author_page_rps", reads.perSecond(ReadApiPhase.AUTHOR_PAGE));
        report.figure("author_page_p99_ms", reads.p99Millis(ReadApiPhase.AUTHOR_PAGE));
        report.figure("counts_api_notices_rps", reads.perSecond(ReadApiPhase.API_NOTICES));
        report.figure("counts_api_notices_p99_ms", reads.p99Millis(ReadApiPhase.API_NOTICES));
        report.figure("counts_notices_ratio", reads.ratio(ReadApiPhase.API_NOTICES, ReadApiPhase.API));
        report.figure("counts_conditional_rps", reads.perSecond(ReadApiPhase.CONDITIONAL));
        report.figure("counts_conditional_ratio", reads.ratio(ReadApiPhase.CONDITIONAL, ReadApiPhase.API));
        report.figure("items_rps", reads.perSecond(ReadApiPhase.ITEMS));
        report.figure("items_p99_ms", reads.p99Millis(ReadApiPhase.ITEMS));
        report.figure("push_rps", reads.perSecond(ReadApiPhase.PUSH));
        report.figure("push_p99_ms", reads.p99Millis(ReadApiPhase.PUSH));
        cpuDetails(report, "counts_api", reads, ReadApiPhase.API);
        cpuDetails(report, "counts_raw", reads, ReadApiPhase.RAW);
        cpuDetails(report, "counts_api_notices", reads, ReadApiPhase.API_NOTICES);
        cpuDetails(report, "author_page", reads, ReadApiPhase.AUTHOR_PAGE);
        cpuDetails(report, "items", reads, ReadApiPhase.ITEMS);
        cpuDetails(report, "push", reads, ReadApiPhase.PUSH);
    }

    /**
     * Cores busy per measurement and the JVM's CPU per request (the server, Lettuce and the load generator, which is
     * the same for every HTTP variant), as median and range over the repetitions.
     */
    private static void cpuDetails(BenchReport report, String prefix, InterleavedLoad.Results results, String variant) {
        report.detail(prefix + "_java_cores", results.spread(variant, m -> m.cpu().javaCores()).toMap());
        report.detail(prefix + "_java_us_per_request", results.spread(variant, InterleavedLoad.Measurement::javaMicrosPerRequest).toMap());
        report.detail(prefix + "_redis_cores", results.spread(variant, m -> m.cpu().redisCores()).toMap());
        report.detail(prefix + "_other_cores", results.spread(variant, m -> m.cpu().otherCores()).toMap());
        report.detail(prefix + "_jit_share", results.spread(variant, m -> m.cpu().jitShare()).toMap());
    }

    private static void latencyDetails(BenchReport report, LatencyPhase.Result latency) {
        List<LatencyPhase.Round> rounds = latency.rounds();
        report.figure("normal_p50_idle_ms", spread(rounds, round -> millis(round.idle().all(), 50)));
        report.figure("normal_p99_idle_ms", spread(rounds, LatencyPhase.Round::idleP99Millis));
        report.figure("normal_p99_during_bigv_ms", spread(rounds, LatencyPhase.Round::bigvP99Millis));
        report.figure("bigv_isolation_ratio", Spread.ofRatios(values(rounds, LatencyPhase.Round::bigvP99Millis),
                values(rounds, LatencyPhase.Round::idleP99Millis)));
        report.figure("bigv_fanout_s", spread(rounds, LatencyPhase.Round::bigvWindowSeconds));
        report.figure("bigv_fanout_deliveries_per_s", spread(rounds, round -> round.bigvDeliveries() / round.bigvWindowSeconds()));
        VisibilityProbes.Latencies idle = VisibilityProbes.Latencies.merge(rounds.stream().map(LatencyPhase.Round::idle).toList());
        VisibilityProbes.Latencies during = VisibilityProbes.Latencies.merge(rounds.stream().map(LatencyPhase.Round::duringBigv).toList());
        report.detail("normal_idle_samples", idle.all().getTotalCount());
        report.detail("normal_idle_max_ms", idle.all().getMaxValue() / 1000.0);
        report.detail("normal_during_bigv_samples", during.all().getTotalCount());
        report.detail("normal_p50_during_bigv_ms", spread(rounds, round -> millis(round.duringBigv().all(), 50)).toMap());
        report.detail("normal_max_during_bigv_ms", during.all().getMaxValue() / 1000.0);
        report.detail("normal_p99_idle_by_partition_ms", byPartition(idle, 99));
        report.detail("normal_p50_during_bigv_by_partition_ms", byPartition(during, 50));
        report.detail("normal_p99_during_bigv_by_partition_ms", byPartition(during, 99));
        report.detail("normal_authors_followers", latency.probeAuthors().stream().mapToInt(VisibilityProbes.ProbeAuthor::followers).summaryStatistics().toString());
        report.detail("bigv_partition", latency.bigvPartition());
        report.detail("bigv_load_s", latency.bigvLoad().toMillis() / 1000.0);
        report.detail("bigv_deliveries", rounds.getFirst().bigvDeliveries());
        report.detail("normal_idle_java_cores", spread(rounds, round -> round.idleCpu().javaCores()).toMap());
        report.detail("normal_idle_other_cores", spread(rounds, round -> round.idleCpu().otherCores()).toMap());
        report.detail("bigv_java_cores", spread(rounds, round -> round.bigvCpu().javaCores()).toMap());
        report.detail("bigv_redis_cores", spread(rounds, round -> round.bigvCpu().redisCores()).toMap());
        report.detail("bigv_other_cores", spread(rounds, round -> round.bigvCpu().otherCores()).toMap());
        // One JVM holds the broker, the processor and the probes: its collector's pauses stop them all at once.
        report.detail("normal_idle_gc_pause_ms_per_s", spread(rounds, round -> round.idleCpu().gcPauseMillisPerSecond()).toMap());
        report.detail("bigv_gc_pause_ms_per_s", spread(rounds, round -> round.bigvCpu().gcPauseMillisPerSecond()).toMap());
        report.detail("bigv_gc_pauses", spread(rounds, round -> round.bigvCpu().gcPauses()).toMap());
        report.detail("normal_idle_redis_slow_commands_per_s", spread(rounds, round -> round.idleCpu().slowRedisCommandsPerSecond()).toMap());
        report.detail("bigv_redis_slow_commands_per_s", spread(rounds, round -> round.bigvCpu().slowRedisCommandsPerSecond()).toMap());
        // Redis also ran the probes' deliveries in the window: they count, or the big-V's cost would look higher.
        double probeFollowers = latency.probeAuthors().stream().mapToInt(VisibilityProbes.ProbeAuthor::followers).average().orElse(0);
        report.detail("bigv_redis_us_per_delivery", spread(rounds, round -> round.bigvCpu().redisCores() * round.bigvWindowSeconds()
                / (round.bigvDeliveries() + round.duringBigv().all().getTotalCount() * probeFollowers) * 1e6).toMap());
        report.detail("bigv_delete_removals_per_s", spread(rounds, round -> round.delete().removalsPerSecond()).toMap());
        report.detail("bigv_delete_redis_us_per_removal", spread(rounds, round -> round.delete().redisMicrosPerRemoval()).toMap());
        report.detail("bigv_delete_redis_cores", spread(rounds, round -> round.delete().cpu().redisCores()).toMap());
        report.detail("latency_rounds_run_again", latency.roundsRunAgain());
        report.detail("latency_rounds_disturbed_kept", latency.disturbedKept());
    }

    /** Percentile per partition of the probe authors ("0": …); the big-V's partition is reported beside it. */
    private static Map<String, Double> byPartition(VisibilityProbes.Latencies latencies, double percentile) {
        Map<String, Double> values = new java.util.TreeMap<>();
        latencies.byPartition().forEach((partition, histogram) -> {
            if (histogram.getTotalCount() > 0) values.put(Integer.toString(partition), millis(histogram, percentile));
        });
        return values;
    }

    /**
     * Per-phase context, as median and range over the phase's runs. {@code jvmDrives}: the bench's JVM does the phase's
     * work (not so for the ceiling, whose client is redis-cli), so its CPU per delivery means something.
     */
    private static void phaseDetails(BenchReport report, String phase, List<? extends WriteMeasurement> runs, boolean jvmDrives) {
        boolean sameWork = runs.stream().allMatch(run -> run.deliveries() == runs.getFirst().deliveries());
        report.detail(phase + "_deliveries", sameWork ? runs.getFirst().deliveries() : spread(runs, WriteMeasurement::deliveries).toMap());
        report.detail(phase + "_s", spread(runs, WriteMeasurement::seconds).toMap());
        report.detail(phase + "_java_cores", spread(runs, run -> run.cpu().javaCores()).toMap());
        report.detail(phase + "_redis_cores", spread(runs, run -> run.cpu().redisCores()).toMap());
        report.detail(phase + "_other_cores", spread(runs, run -> run.cpu().otherCores()).toMap());
        if (runs.getFirst().cpu().scriptCalls() > 0) {
            report.detail(phase + "_redis_us_per_delivery", spread(runs, run -> run.cpu().redisCores() * run.seconds() / run.deliveries() * 1e6).toMap());
            // A script delivers to up to 100 followers: per delivery, not per call, compares with the CPU figure.
            report.detail(phase + "_redis_script_us_per_delivery", spread(runs, run -> run.cpu().scriptMicros() / run.deliveries()).toMap());
        }
        if (jvmDrives) {
            report.detail(phase + "_java_us_per_delivery", spread(runs, run -> run.cpu().javaCores() * run.seconds() / run.deliveries() * 1e6).toMap());
        }
    }

    private static void describeRun(BenchReport report, BenchConfig config) {
        report.run("mode", config.mode());
        report.run("command", "./readmark bench" + (config.quick() ? " --quick" : ""));
        report.run("cores", Runtime.getRuntime().availableProcessors());
        report.run("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        report.run("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        report.run("config", config.describe());
        report.run("loadavg_at_start", loadAverage());
    }

    /** The 1-minute load average ({@code /proc/loadavg}), so a run on a busy machine shows it; -1 elsewhere. */
    static double loadAverage() {
        try {
            return Double.parseDouble(java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (Exception e) {
            return -1;
        }
    }

    /** {@code <commit>} or {@code <commit>+dirty} of the working directory, read-only; "unknown" outside a clone. */
    static String gitRevision() {
        try {
            String commit = run("git", "rev-parse", "--short", "HEAD");
            return commit.isEmpty() ? "unknown" : commit + (run("git", "status", "--porcelain").isEmpty() ? "" : "+dirty");
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        return process.waitFor() == 0 ? output : "";
    }

    private static double millis(org.HdrHistogram.Histogram histogram, double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    private static double seconds(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1e9;
    }
}
