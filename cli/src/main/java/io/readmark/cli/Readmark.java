package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.common.console.ProgressLine;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.StreamProcessor;
import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;

import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The production {@code readmark} command, the jar every container image runs: {@code producer-api}, {@code view-api}
 * and {@code stream-processor} each run one deployable; {@code token} signs a JWT for trying the APIs; {@code rebuild}
 * and {@code reconcile} are the operators' repairs of Redis, {@code migrate} its upgrade. Every command takes every setting as a flag of the same
 * name. The developer tools ({@code local}, {@code bench}, {@code soak}) live in the dev-tools jar, whose dispatcher
 * adds them to these commands through {@link #run}.
 */
public final class Readmark {

    /** The help lines of this jar's commands; the dev-tools jar's help lists them below its own. */
    public static final String COMMANDS_HELP = """
              producer-api      run the HTTP ingest against KAFKA_BOOTSTRAP_SERVERS until stopped
              view-api          run the HTTP reads against REDIS_URL until stopped
              stream-processor  run the Kafka Streams processor (PROCESSOR_ROLES) until stopped
              token --token-api producer|view --token-private-key-file <PEM> --token-subject <user id or service>
                    [--token-scope readmark:publish:reads] [--token-ttl PT1H]
                                print a JWT for that API (its audience), signed with the private key of the pair
                                whose public key the API verifies with (or AUTH_JWT_HS256_SECRET), for trying it;
                                scopes: readmark:publish (everything) or readmark:publish:reads|follows|posts|
                                notices|broadcast for the producer, readmark:read-any for the view
              rebuild           repopulate Redis from Kafka after it lost data: replays the retained follow, blog
                                and read events through the processor's topology as a temporary Kafka Streams
                                application, then removes it. Safe while the processor runs. Needs follow-events
                                retained forever and read-events at least as long as blog-events; posts older than
                                blog-events' retention are not rebuilt. Exit 0 done, 1 failed (130/143: stopped
                                by Ctrl-C/SIGTERM, after removing what it created).
              reconcile [--repair]
                                check every user's counts against their unread entries (SCAN, one read-only script
                                per user; safe while the processor runs); --repair makes drifted users' counts and
                                entries agree again. Exit 0 no drift left, 1 drift found and not repaired, 2 could not run.
              migrate           convert every user from the Redis layout before z and h (one script per user; run
                                again to resume). Exit 0 done, 2 could not run.
            """;

    private static final String USAGE = usage(COMMANDS_HELP, """
            The developer tools (local, bench, soak) are not in this jar: run ./readmark <command> from a checkout.
            Every setting can be given as an environment variable or as a flag of the same name,
            e.g. VIEW_API_PORT=9001 or --view-api-port 9001. See docs/CONFIGURATION.md.
            """);

    /** One command; it runs with the arguments after its name. */
    @FunctionalInterface
    public interface Command {
        void run(List<String> args) throws Exception;
    }

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

    /** Flags of {@code reconcile} that take no value. */
    static final Map<String, String> RECONCILE_SWITCHES = Map.of("repair", ReconcileCommand.REPAIR);

    /** This jar's commands by name, {@code help} aside. */
    public static final Map<String, Command> COMMANDS = commands();

    private static final String LOG_FORMAT = "READMARK_LOG_FORMAT";

    private Readmark() {
    }

    public static void main(String[] args) throws Exception {
        run(args, COMMANDS, USAGE);
    }

    /**
     * Runs the command {@code args[0]} names with the rest of {@code args}; no command or {@code help} prints
     * {@code usage}, an unknown command or a bad flag prints it to stderr and exits 2.
     */
    public static void run(String[] args, Map<String, Command> commands, String usage) throws Exception {
        if (args.length == 0 || List.of("help", "--help", "-h").contains(args[0])) {
            System.out.print(usage);
            return;
        }
        Command command = commands.get(args[0]);
        if (command == null) {
            fail("unknown command '" + args[0] + "'", usage);
            return;
        }
        try {
            command.run(Arrays.asList(args).subList(1, args.length));
        } catch (IllegalArgumentException e) {
            fail(e.getMessage(), usage);
        }
    }

    /** The help text: the usage line, {@code commandsHelp} and {@code help} under "commands:", then {@code footer}. */
    public static String usage(String commandsHelp, String footer) {
        return """
                usage: readmark <command> [--setting-name value ...]

                commands:
                """ + commandsHelp + """
                  help              show this text

                """ + footer;
    }

    private static Map<String, Command> commands() {
        Map<String, Command> commands = new HashMap<>();
        DEPLOYABLES.keySet().forEach(name -> commands.put(name, args -> runDeployable(name, settings(args))));
        commands.put("token", args -> System.out.println(TokenCommand.sign(settings(args), Instant.now())));
        commands.put("rebuild", args -> System.exit(runRebuild(settings(args))));
        commands.put("migrate", args -> System.exit(runMigrate(settings(args))));
        commands.put("reconcile", args -> System.exit(runReconcile(
                Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(args, RECONCILE_SWITCHES)))));
        return Map.copyOf(commands);
    }

    /**
     * Checks {@code READMARK_LOG_FORMAT} and hands it to logback as a system property before the first logger exists,
     * so that the flag works like the variable and a typo is an error rather than silently text.
     */
    public static void useLogFormat(Settings settings) {
        String format = settings.string(LOG_FORMAT, "text").toLowerCase(Locale.ROOT);
        if (!Set.of("text", "json").contains(format)) {
            throw new IllegalArgumentException(LOG_FORMAT + " must be text or json, was '" + format + "'");
        }
        System.setProperty(LOG_FORMAT, format);
    }

    /**
     * Operator commands and the soak draw progress on stderr or stdout; the processor's INFO lines and Kafka's start-up warnings (about
     * a temporary state folder, handler defaults) would tear it apart, so the default levels are WARN and ERROR. Set
     * before the first logger exists.
     */
    public static void useOperatorLogging(Settings settings) {
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

    private static int runMigrate(Settings settings) {
        useOperatorLogging(settings);
        return MigrateCommand.run(MigrateCommand.Config.from(settings), System.out, System.err, ProgressLine.stderrIsTerminal());
    }

    /** The environment's settings, overridden by {@code flags}. */
    public static Settings settings(List<String> flags) {
        return Settings.fromEnvironment().withOverrides(CommandLineFlags.parse(flags));
    }

    private static void runDeployable(String command, Settings settings) throws Exception {
        AutoCloseable deployable;
        try {
            deployable = DEPLOYABLES.get(command).start(settings);
        } catch (IllegalArgumentException e) {
            throw e; // a bad setting: run reports it with the usage
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

    private static void fail(String message, String usage) {
        System.err.println("readmark: " + message);
        System.err.print(usage);
        System.exit(2);
    }
}
