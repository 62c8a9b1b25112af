package io.readmark.bench;

import io.readmark.client.EventPublisher;
import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedKafka;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.launcher.LocalStack;
import io.readmark.processor.ProcessorConfig;
import io.readmark.schemas.Topics;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code ./readmark bench --replicas}: what {@code READMARK_REDIS_WAIT_REPLICAS=1} costs against the default 0. On its
 * own embedded Kafka and a Redis master with one replica, the quick-size graph is loaded, then the pipeline runs
 * without the wait and with it ({@link ReplicaWaitRuns}), after one unmeasured run with it: it warms up the write path
 * both share, and the wait besides.
 * The order turns each repetition (0, 1, then 1, 0), so a machine that drifts faster or slower weighs on both settings
 * alike; a repetition a neighbour disturbed is run again ({@link RunsAgain}). Writes {@code replicas-latest.txt} and
 * {@code .json}.
 */
public final class ReplicaWaitStudy {

    private static final String APPLICATION_ID = "readmark-bench-replicas";

    private ReplicaWaitStudy() {
    }

    public static ReplicaWaitReport run(Settings settings, PrintStream out, PrintStream err) throws Exception {
        // The quick sizes unless set: the wait's cost per delivery and per post needs no larger platform.
        BenchConfig config = BenchConfig.from(settings.withDefaults(Map.of("BENCH_QUICK", "true")));
        int repetitions = settings.positiveInteger("BENCH_REPLICAS_REPETITIONS", 5);
        long started = System.nanoTime();
        ReplicaWaitReport report = new ReplicaWaitReport(Instant.now());
        report.run("command", "./readmark bench --replicas");
        report.run("source", settings.find("BENCH_SOURCE").orElseGet(Bench::gitRevision));
        report.run("cores", Runtime.getRuntime().availableProcessors());
        report.run("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        report.run("loadavg_at_start", Bench.loadAverage());
        PowerLawGraph graph = PowerLawGraph.generate(config.users(), config.authors(), config.followsPerUser(), config.exponent(), config.seed());
        Workload workload = Workload.of(graph, config.postsPerAuthor(), ScriptGroups.of(ProcessorConfig.from(settings)));
        err.printf("readmark bench --replicas: %,d users, %,d authors, %,d follows; %d repetitions of WAIT 0 and WAIT 1%n",
                graph.users(), graph.authors(), graph.edges(), repetitions);

        try (EmbeddedKafka kafka = EmbeddedKafka.start(0);
             EmbeddedRedis master = EmbeddedRedis.start(0);
             EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master);
             RedisConnections masterRedis = RedisConnections.connect(master.url(), Duration.ofSeconds(60), false);
             RedisConnections replicaRedis = RedisConnections.connect(replica.url(), Duration.ofSeconds(60), false);
             RedisStats stats = new RedisStats(masterRedis)) {
            report.run("redis_version", stats.version());
            String bootstrap = kafka.bootstrapServers();
            Settings stack = settings.withOverrides(Map.of("KAFKA_BOOTSTRAP_SERVERS", bootstrap, "REDIS_URL", master.url(),
                    "PROCESSOR_APPLICATION_ID", APPLICATION_ID, "PROCESSOR_HTTP_PORT", "0",
                    "PROCESSOR_STATE_DIR", Files.createTempDirectory("readmark-bench-replicas").toString()));
            int partitions = stack.positiveInteger("READMARK_PARTITIONS", 3);
            report.run("partitions", partitions);
            report.run("stream_threads", stack.positiveInteger("PROCESSOR_STREAM_THREADS", 2));
            report.run("commit_interval", ProcessorConfig.from(stack).commitInterval().toString());
            report.run("config", new TreeMap<>(Map.of("BENCH_USERS", config.users(), "BENCH_AUTHORS", config.authors(),
                    "BENCH_SEED", config.seed(), "BENCH_IDLE_DURATION", config.idleDuration().toString(),
                    "BENCH_REPLICAS_REPETITIONS", repetitions)));
            Topics topics = LocalStack.createTopics(stack, bootstrap);
            try (RestartingProcessor processor = new RestartingProcessor(stack);
                 EventPublisher bulk = Bench.bulkPublisher(bootstrap, topics);
                 EventPublisher probes = Bench.probePublisher(bootstrap, topics);
                 Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                processor.start(0);
                report.run("graph_load_s", new GraphLoader(bulk, admin, APPLICATION_ID).load(graph, err).toMillis() / 1000.0);
                ReplicaWaitRuns runs = new ReplicaWaitRuns(config, workload, partitions, processor, bulk, probes, masterRedis,
                        replicaRedis, stats, new UnreadKeys(stack.string("READMARK_REDIS_PREFIX", UnreadKeys.DEFAULT_PREFIX)), err);
                report.run("deliveries_per_run", runs.workload().deliveries());
                err.println("replicas: warm-up run, WAIT 1");
                runs.measure(1);
                measure(runs, repetitions, report, err);
            }
        }
        report.run("duration_s", Math.round((System.nanoTime() - started) / 1e9));
        report.run("loadavg_at_end", Bench.loadAverage());
        List<Path> files = report.write(config.outputDir());
        out.print(report.table());
        out.printf("%nwritten: %s%n", files);
        return report;
    }

    /** The repetitions, each a run without the wait and one with it, in turns; disturbed ones run again. */
    private static void measure(ReplicaWaitRuns runs, int repetitions, ReplicaWaitReport report, PrintStream err) throws Exception {
        RunsAgain runsAgain = new RunsAgain("replicas", repetitions, err);
        for (int kept = 0; kept < repetitions; ) {
            int repetition = kept + 1;
            boolean waitFirst = repetition % 2 == 0;
            ReplicaWaitRuns.Result first = runs.measure(waitFirst ? 1 : 0);
            ReplicaWaitRuns.Result second = runs.measure(waitFirst ? 0 : 1);
            ReplicaWaitRuns.Result without = waitFirst ? second : first, with = waitFirst ? first : second;
            err.printf(Locale.ROOT, "replicas repetition %d%s: WAIT 0 %,.0f deliveries/s, p99 %.2f ms; WAIT 1 %,.0f deliveries/s, p99 %.2f ms%n",
                    repetition, runsAgain.attemptSuffix(), without.deliveriesPerSecond(), without.p99Millis(),
                    with.deliveriesPerSecond(), with.p99Millis());
            String disturbance = first.disturbance() != null ? first.disturbance() : second.disturbance();
            if (runsAgain.shouldRunAgain(repetition, disturbance)) continue;
            report.add(without, with);
            kept++;
        }
        report.run("repetitions_run_again", runsAgain.repetitionsRunAgain());
        report.run("repetitions_disturbed_kept", runsAgain.disturbedKept());
    }
}
