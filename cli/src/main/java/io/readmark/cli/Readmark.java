package io.readmark.cli;

import io.readmark.bench.Bench;
import io.readmark.common.config.Settings;
import io.readmark.common.console.ProgressLine;
import io.readmark.launcher.LocalStack;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.StreamProcessor;
import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.reliability.SoakConfig;
import io.readmark.reliability.SoakReport;
import io.readmark.reliability.SoakRun;
import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The {@code readmark} command: {@code local} runs the whole pipeline in this process until Ctrl-C; {@code bench}
 * measures it on a synthetic platform; {@code soak} puts it through crashes, outages and bad records and checks nothing was lost;
 * {@code producer-api}, {@code view-api} and {@code stream-processor} each run one deployable (what the container
 * images start); {@code token} signs a JWT for trying the APIs; {@code rebuild} and {@code reconcile} are the
 * operators' repairs of Redis. Every command takes every setting as a flag of the same name.
 */
public final class Readmark {

    private static final String USAGE = """
            usage: readmark <command> [--setting-name value ...]

            commands:
              local             run Kafka, Redis, the stream processor and both APIs in this process (Ctrl-C stops)
              producer-api      run the HTTP ingest against KAFKA_BOOTSTRAP_SERVERS until stopped
              view-api          run the HTTP reads against REDIS_URL until stopped
              stream-processor  run the Kafka Streams processor (PROCESSOR_ROLES) until stopped
              token --token-subject <user id or service> [--token-scope readmark:publish] [--token-ttl PT1H]
                                print an HS256 JWT signed with AUTH_JWT_HS256_SECRET, for trying the APIs
              bench [--quick]   measure throughput, latency, reads and memory on a synthetic platform; prints a
                                table and writes bench-results/latest.json and latest.png (--quick: ~2 min)
              soak [--minutes 10] [--seed N]
                                run two stream processors as separate processes on embedded Kafka and Redis under a
                                continuous workload while killing them, stopping Redis, restarting the broker and
                                sending bursts of bad records, then check every user's unread state against the
                                exact expected one and every bad record against the dead-letter topic; then wipe
                                Redis, rebuild and reconcile it and check again; exit status 1 if anything was
                                lost, extra, double-counted, not dead-lettered or drifted
              rebuild           repopulate Redis from Kafka after it lost data: replays the retained follow, blog
                                and read events through the processor's topology as a temporary Kafka Streams
                                application, then removes it. Safe while the processor runs. Needs follow-events
                                retained forever and read-events at least as long as blog-events; posts older than
                                blog-events' retention are not rebuilt. Exit 0 done, 1 failed (130/143: stopped
                                by Ctrl-C/SIGTERM, after removing what it created).
              reconcile [--repair]
                                check every user's counts against their unread sets (SCAN, one read-only script per
                                user; safe while the processor runs); --repair recomputes drifted users' counts from
                                their sets. Exit 0 no drift left, 1 drift found and not repaired, 2 could not run.
              help              show this text

            Every setting can be given as an environment variable or as a flag of the same name,
            e.g. VIEW_API_PORT=9001 or --view-api-port 9001. See docs/CONFIGURATION.md and docs/BENCHMARKS.md.
            """;

    /** Starts one deployable; it runs until closed. */
    @FunctionalInterface
    interface Deployable {
        AutoCloseable start(Settings settings) throws Exception;
    }

    /** The deployables by command name: the names the container images' entry points use. */
    static final Map<String, Deployable> DEPLOYABLES = Map.of(
            "producer-api", settings -> ProducerApi.start(ProducerApiConfig.from(settings)),
            "view-api", settings -> ViewApi.start(ViewApiConfig.from(settings)),
            "stream-processor", settings -> StreamProcessor.start(ProcessorConfig.from(settings)));

    /** Flags of {@code bench} that take no value. */
    private static final Map<String, String> BENCH_SWITCHES = Map.of("quick", "BENCH_QUICK");
    /** Flags of {@code reconcile} that take no value. */
    static final Map<String, String> RECONCILE_SWITCHES = Map.of("repair", ReconcileCommand.REPAIR);
    private static final String LOG_FORMAT = "READMARK_LOG_FORMAT";

    private Readmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || List.of("help", "--help", "-h").contains(args[0])) {
            System.out.print(USAGE);
            return;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            switch (args[0]) {
                case "local" -> runLocal(settings(rest), System.out);
                case "bench" -> runBench(Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(rest, BENCH_SWITCHES)));
                case "soak" -> runSoak(Settings.fromEnvironment().withOverrides(soakFlags(rest)));
                case "token" -> System.out.println(TokenCommand.sign(settings(rest), Instant.now()));
                case "rebuild" -> System.exit(runRebuild(settings(rest)));
                case "reconcile" -> System.exit(runReconcile(
                        Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(rest, RECONCILE_SWITCHES))));
                case String command when DEPLOYABLES.containsKey(command) -> runDeployable(command, settings(rest));
                default -> fail("unknown command '" + args[0] + "'");
            }
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
        }
    }

    /**
     * Checks {@code READMARK_LOG_FORMAT} and hands it to logback as a system property before the first logger exists,
     * so that the flag works like the variable and a typo is an error rather than silently text.
     */
    private static void useLogFormat(Settings settings) {
        String format = settings.string(LOG_FORMAT, "text").toLowerCase(Locale.ROOT);
        if (!Set.of("text", "json").contains(format)) {
            throw new IllegalArgumentException(LOG_FORMAT + " must be text or json, was '" + format + "'");
        }
        System.setProperty(LOG_FORMAT, format);
    }

    private static void runLocal(Settings settings, PrintStream out) throws Exception {
        useLogFormat(settings);
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
                  Processor      %s   GET /health/ready
                  Metrics        GET /metrics on the producer API, the view API and the processor
                Press Ctrl-C to stop.
                %n""", stack.authenticated() ? "bearer JWT authentication on" : "authentication OFF, for local use only",
                stack.kafkaBootstrapServers(), String.join(", ", stack.topics().allNames()), stack.redisUrl(),
                stack.producerApiUrl(), stack.viewApiUrl(), stack.processorUrl());
        stopped.await();
    }

    private static void runBench(Settings settings) throws Exception {
        useLogFormat(settings);
        // Set before the first logger exists: Kafka's start-up chatter would tear the progress bars apart.
        String level = settings.string("READMARK_LOG_LEVEL", "ERROR");
        System.setProperty("READMARK_LOG_LEVEL", level);
        System.setProperty("READMARK_KAFKA_LOG_LEVEL", level);
        System.setProperty("java.awt.headless", "true");
        Bench.run(settings, System.out, System.err);
        // Kafka's and Lettuce's non-daemon threads are closed by then; exit explicitly in case a client lingers.
        System.exit(0);
    }

    /**
     * Operator commands and the soak draw progress on stderr or stdout; the processor's INFO lines and Kafka's start-up warnings (about
     * a temporary state folder, handler defaults) would tear it apart, so the default levels are WARN and ERROR. Set
     * before the first logger exists.
     */
    private static void useOperatorLogging(Settings settings) {
        useLogFormat(settings);
        System.setProperty("READMARK_LOG_LEVEL", settings.string("READMARK_LOG_LEVEL", "WARN"));
        System.setProperty("READMARK_KAFKA_LOG_LEVEL", settings.string("READMARK_KAFKA_LOG_LEVEL", "ERROR"));
    }

    private static int runRebuild(Settings settings) throws InterruptedException {
        useOperatorLogging(settings);
        RebuildCommand rebuild = RebuildCommand.from(settings, Instant.now());
        // Ctrl-C: stop the rebuild and let it remove its temporary applications before the JVM exits.
        CountDownLatch finished = new CountDownLatch(1);
        Thread cancel = new Thread(() -> {
            rebuild.cancel();
            try {
                finished.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "readmark-rebuild-cancel");
        Runtime.getRuntime().addShutdownHook(cancel);
        try {
            return rebuild.run(System.out, System.err, ProgressLine.stderrIsTerminal());
        } finally {
            finished.countDown();
        }
    }

    private static int runReconcile(Settings settings) {
        useOperatorLogging(settings);
        return ReconcileCommand.run(ReconcileCommand.Config.from(settings), System.out, System.err, ProgressLine.stderrIsTerminal());
    }

    /** {@code --minutes 3} is {@code SOAK_MINUTES=3}: the soak's flags may leave out the prefix. */
    static Map<String, String> soakFlags(List<String> args) {
        Map<String, String> flags = new HashMap<>();
        CommandLineFlags.parse(args).forEach((name, value) ->
                flags.put(SoakConfig.SETTINGS.contains("SOAK_" + name) ? "SOAK_" + name : name, value));
        return flags;
    }

    private static void runSoak(Settings settings) {
        useOperatorLogging(settings);
        SoakReport report = SoakRun.run(SoakConfig.from(settings), System.out);
        report.print(System.out);
        System.exit(report.passed() ? 0 : 1);
    }

    private static Settings settings(List<String> flags) {
        return Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(flags));
    }

    private static void runDeployable(String command, Settings settings) throws Exception {
        AutoCloseable deployable;
        try {
            deployable = DEPLOYABLES.get(command).start(settings);
        } catch (IllegalArgumentException e) {
            throw e; // a bad setting: main reports it with the usage
        } catch (Exception e) {
            // Exit with a failure status even if a half-started client left a non-daemon thread behind, so the
            // container stops and its restart policy (or the orchestrator) takes over.
            System.err.println("readmark: " + command + " could not start");
            e.printStackTrace();
            System.exit(1);
            return;
        }
        awaitShutdown(deployable, command + "-shutdown");
    }

    /** Blocks until the JVM is asked to stop (SIGTERM, Ctrl-C); a shutdown hook closes {@code running} first. */
    private static void awaitShutdown(AutoCloseable running, String threadName) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.close();
            } catch (Exception e) {
                System.err.println("readmark: error while stopping: " + e);
            } finally {
                stopped.countDown();
            }
        }, threadName));
        stopped.await();
    }

    private static void fail(String message) {
        System.err.println("readmark: " + message);
        System.err.print(USAGE);
        System.exit(2);
    }
}
