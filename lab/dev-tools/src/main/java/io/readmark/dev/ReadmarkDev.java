package io.readmark.dev;

import io.readmark.bench.Bench;
import io.readmark.bench.LayoutStudy;
import io.readmark.bench.ReplicaWaitStudy;
import io.readmark.bench.StreamLoad;
import io.readmark.cli.CommandLineFlags;
import io.readmark.cli.Readmark;
import io.readmark.cli.Readmark.Command;
import io.readmark.common.config.Settings;
import io.readmark.launcher.LocalStack;
import io.readmark.reliability.SoakConfig;
import io.readmark.reliability.SoakReport;
import io.readmark.reliability.SoakRun;
import io.readmark.store.redis.RedisEndpoint;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The developer's {@code readmark} command, what {@code ./readmark} runs: {@code local} runs the whole pipeline in this
 * process until Ctrl-C; {@code bench} measures it on a synthetic platform; {@code soak} puts it through crashes, outages
 * and bad records and checks nothing was lost. Every production command ({@link Readmark}) runs here too.
 */
public final class ReadmarkDev {

    private static final String USAGE = Readmark.usage("""
              local             run Kafka, Redis, the stream processor and both APIs in this process (Ctrl-C stops)
              bench [--quick]   measure throughput, latency, reads and memory on a synthetic platform; prints a
                                table and writes bench-results/latest.json and latest.png (--quick: ~2 min)
              bench --layouts   only the Redis layout study: today's layout and the candidates, bytes per entry
                                and Redis CPU per operation; writes bench-results/layouts-latest.txt and .json
              bench --streams   only the stream load: 1,000 / 5,000 / 10,000 streams open on one view API, their
                                memory, idle CPU and push latency; writes bench-results/streams-latest.txt and .json
              bench --replicas  only the cost of READMARK_REDIS_WAIT_REPLICAS=1: the pipeline on a Redis with one
                                replica, alternately without and with the wait; throughput and idle latency, as
                                ratios; writes bench-results/replicas-latest.txt and .json
              soak [--minutes 10] [--seed N] [--replicated true]
                                run two stream processors as separate processes on embedded Kafka and Redis under a
                                continuous workload while killing them, stopping Redis, restarting the broker and
                                sending bursts of bad records, then check every user's unread state against the
                                exact expected one and every bad record against the dead-letter topic; then wipe
                                Redis, rebuild and reconcile it and check again; exit status 1 if anything was
                                lost, extra, double-counted, not dead-lettered or drifted. --replicated true: on
                                three Kafka nodes and a Redis Cluster with replicas, failing over Redis masters
                                and killing partition leaders instead of stopping Redis and the broker
            """ + Readmark.COMMANDS_HELP, """
            Every setting can be given as an environment variable or as a flag of the same name,
            e.g. VIEW_API_PORT=9001 or --view-api-port 9001. See docs/CONFIGURATION.md and docs/BENCHMARKS.md.
            """);

    /** Flags of {@code bench} that take no value. */
    private static final Map<String, String> BENCH_SWITCHES = Map.of("quick", "BENCH_QUICK", "layouts", "BENCH_LAYOUTS",
            "streams", "BENCH_STREAMS", "replicas", "BENCH_REPLICAS");

    /** The developer tools and every production command, by name. */
    static final Map<String, Command> COMMANDS = commands();

    private ReadmarkDev() {
    }

    public static void main(String[] args) throws Exception {
        Readmark.run(args, COMMANDS, USAGE);
    }

    private static Map<String, Command> commands() {
        Map<String, Command> commands = new HashMap<>(Readmark.COMMANDS);
        commands.put("local", args -> runLocal(Readmark.settings(args), System.out));
        commands.put("bench", args -> runBench(Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(args, BENCH_SWITCHES))));
        commands.put("soak", args -> runSoak(Settings.fromEnvironment().withOverrides(soakFlags(args))));
        return Map.copyOf(commands);
    }

    private static void runLocal(Settings settings, PrintStream out) throws Exception {
        Readmark.useLogFormat(settings);
        LocalStack stack = LocalStack.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("readmark: stopping…");
            stack.close();
            stopped.countDown();
        }, "readmark-shutdown"));
        out.printf("""

                Readmark is running (local mode, %s).
                  Kafka          %s   topics: %s
                  Redis          %s
                  Producer API   %s   POST /v1/events
                  View API       %s   GET /v1/users/{userId}/unread
                  Demo inbox     %s   open it in a browser: badges pushed live
                Management (GET /health/live, /health/ready, /metrics), on loopback only:
                  Producer API   %s
                  View API       %s
                  Processor      %s
                Press Ctrl-C to stop.
                %n""", stack.authenticated() ? "bearer JWT authentication on" : "authentication OFF, for local use only",
                stack.kafkaBootstrapServers(), String.join(", ", stack.topics().allNames()), RedisEndpoint.of(stack.redisUrl()),
                stack.producerApiUrl(), stack.viewApiUrl(), stack.demoUrl(), stack.producerManagementUrl(), stack.viewManagementUrl(),
                stack.processorUrl());
        stopped.await();
    }

    private static void runBench(Settings settings) throws Exception {
        Readmark.useLogFormat(settings);
        // Set before the first logger exists: Kafka's start-up chatter would tear the progress bars apart.
        String level = settings.string("READMARK_LOG_LEVEL", "ERROR");
        System.setProperty("READMARK_LOG_LEVEL", level);
        System.setProperty("READMARK_KAFKA_LOG_LEVEL", level);
        System.setProperty("java.awt.headless", "true");
        if (settings.bool("BENCH_LAYOUTS", false)) {
            LayoutStudy.run(settings, System.out, System.err);
        } else if (settings.bool("BENCH_STREAMS", false)) {
            StreamLoad.run(settings, System.out, System.err);
        } else if (settings.bool("BENCH_REPLICAS", false)) {
            ReplicaWaitStudy.run(settings, System.out, System.err);
        } else {
            Bench.run(settings, System.out, System.err);
        }
        // Kafka's and Lettuce's non-daemon threads are closed by then; exit explicitly in case a client lingers.
        System.exit(0);
    }

    /** {@code --minutes 3} is {@code SOAK_MINUTES=3}: the soak's flags may leave out the prefix. */
    static Map<String, String> soakFlags(List<String> args) {
        Map<String, String> flags = new HashMap<>();
        CommandLineFlags.parse(args).forEach((name, value) ->
                flags.put(SoakConfig.SETTINGS.contains("SOAK_" + name) ? "SOAK_" + name : name, value));
        return flags;
    }

    private static void runSoak(Settings settings) {
        Readmark.useOperatorLogging(settings);
        SoakReport report = SoakRun.run(SoakConfig.from(settings), System.out);
        report.print(System.out);
        System.exit(report.passed() ? 0 : 1);
    }
}
