package io.readmark.cli;

import io.readmark.bench.Bench;
import io.readmark.common.config.Settings;
import io.readmark.launcher.LocalStack;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The {@code readmark} command: {@code local} runs the whole pipeline in this process until Ctrl-C; {@code bench}
 * measures it on a synthetic platform. Every command takes every setting as a flag of the same name.
 */
public final class Readmark {

    private static final String USAGE = """
            usage: readmark <command> [--setting-name value ...]

            commands:
              local            run Kafka, Redis, the stream processor and both APIs in this process (Ctrl-C stops)
              bench [--quick]  measure throughput, latency, reads and memory on a synthetic platform; prints a
                               table and writes bench-results/latest.json and latest.png (--quick: ~2 min)
              help             show this text

            Every setting can be given as an environment variable or as a flag of the same name,
            e.g. VIEW_API_PORT=9001 or --view-api-port 9001. See README.md and docs/BENCHMARKS.md for the list.
            """;

    /** Flags of {@code bench} that take no value. */
    private static final Map<String, String> BENCH_SWITCHES = Map.of("quick", "BENCH_QUICK");
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
                case "local" -> runLocal(Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(rest)), System.out);
                case "bench" -> runBench(Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(rest, BENCH_SWITCHES)));
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

                Readmark is running (local mode: no authentication).
                  Kafka          %s   topics: %s
                  Redis          %s
                  Producer API   %s   POST /v1/events
                  View API       %s   GET /v1/users/{userId}/unread
                  Processor      %s   GET /health/ready
                  Metrics        GET /metrics on the producer API, the view API and the processor
                Press Ctrl-C to stop.
                %n""", stack.kafkaBootstrapServers(), String.join(", ", stack.topics().allNames()), stack.redisUrl(),
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

    private static void fail(String message) {
        System.err.println("readmark: " + message);
        System.err.print(USAGE);
        System.exit(2);
    }
}
