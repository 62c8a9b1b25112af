package io.readmark.bench;

import io.readmark.bench.layouts.Layout;
import io.readmark.bench.layouts.PreviousLayout;
import io.readmark.bench.layouts.ProductLayout;
import io.readmark.bench.layouts.TinyInlineLayout;
import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadLimits;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * {@code ./readmark bench --layouts}: measure before choosing. The previous release's layout (L0, on its own scripts:
 * the targets are stated against it), the product's (A) and the other candidate (B) each write the same spreads of
 * unread entries (light, heavy, tiny) on one Redis of the study's own, emptied before each turn, and are measured for
 * bytes per entry and Redis time per delivery (one user per script, and a big-V's post to a burst of followers per
 * script) and per read and write operation; on the heavy spread A runs once more
 * on Redis's stock listpack limits (A/stock). In every repetition the
 * layouts take turns on each spread, the first turn rotating, so a slow stretch of the shared machine falls on all
 * of them; every figure is the median with the range over the repetitions. Only lab code: the production modules do
 * not know the candidates.
 */
public final class LayoutStudy {

    /** A spread, and the layouts measured on it, in the order they are measured and printed. */
    record NamedSpread(String name, MemoryPhase.Population population, List<Layout> layouts) {
    }

    private static final int HEAVY_AUTHORS = 10, HEAVY_MIN_UNREAD = 20, HEAVY_MAX_UNREAD = 40, TINY_MAX_UNREAD = 3;
    /** The quick bench's graph, whose first users are the light spread (as the memory phase's platform spread). */
    private static final int GRAPH_USERS = 20_000, GRAPH_AUTHORS = 2_000;

    private LayoutStudy() {
    }

    public static void run(Settings settings, PrintStream out, PrintStream err) throws Exception {
        LayoutStudyConfig config = LayoutStudyConfig.from(settings);
        long started = System.nanoTime();
        UnreadLimits limits = UnreadLimits.DEFAULTS;
        try (EmbeddedRedis server = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(server.url(), Duration.ofSeconds(60), false);
             RedisStats stats = new RedisStats(redis)) {
            List<Layout> candidates = List.of(new PreviousLayout(redis, limits.maxUnreadPerAuthor(), limits.maxMarksPerUser()),
                    new ProductLayout(redis, limits),
                    new TinyInlineLayout(redis, limits.maxUnreadPerAuthor(), limits.maxMarksPerUser()));
            // Only heavy users have sets and blobs past the stock listpack limits: elsewhere this column would be A's.
            Layout stock = ProductLayout.onStockListpacks(redis, limits);
            List<Layout> layouts = Stream.concat(candidates.stream(), Stream.of(stock)).toList();
            List<NamedSpread> spreads = spreads(config, candidates, layouts);
            try {
                Map<String, String> defaults = defaults(redis, layouts);
                LayoutStudyReport report = new LayoutStudyReport(Instant.now(), stats.version(), config, layouts);
                for (int repetition = 1; repetition <= config.repetitions(); repetition++) {
                    for (NamedSpread spread : spreads) {
                        List<Layout> turns = spread.layouts();
                        for (int turn = 0; turn < turns.size(); turn++) {
                            Layout layout = turns.get((turn + repetition - 1) % turns.size());
                            prepare(redis, defaults, layout);
                            LayoutRun.Result result = LayoutRun.run(layout, spread.population(), config.seed(), config.operations(),
                                    repetition == 1, stats);
                            report.add(spread.name(), layout.name(), result);
                            err.printf("layouts: repetition %d, %s, %s: %.1f B/entry, %.2f µs/delivery%n", repetition, spread.name(),
                                    layout.name(), result.bytesPerEntry(), result.micros().get(Layout.Operation.DELIVER));
                        }
                    }
                }
                report.finish((System.nanoTime() - started) / 1e9);
                List<Path> files = report.write(config.outputDir());
                out.print(report.table());
                out.printf("%nwritten: %s%n", files);
            } finally {
                layouts.forEach(Layout::close);
            }
        }
    }

    private static List<NamedSpread> spreads(LayoutStudyConfig config, List<Layout> layouts, List<Layout> heavyLayouts) {
        PowerLawGraph graph = PowerLawGraph.generate(Math.max(GRAPH_USERS, config.lightUsers()), GRAPH_AUTHORS, 20, 0.9, config.seed());
        int[] heavyAuthors = IntStream.rangeClosed(1, HEAVY_AUTHORS).toArray();
        return List.of(
                new NamedSpread("light", MemoryPhase.Population.of(graph, config.lightUsers(), 4), layouts),
                new NamedSpread("heavy", new MemoryPhase.Population(config.heavyUsers(), user -> heavyAuthors, HEAVY_MIN_UNREAD, HEAVY_MAX_UNREAD),
                        heavyLayouts),
                // One author for two users in three, two for the third; authors spread over the graph's.
                new NamedSpread("tiny", new MemoryPhase.Population(config.tinyUsers(), user -> {
                    int author = 1 + (int) ((user * 7919L) % GRAPH_AUTHORS);
                    return user % 3 == 0 ? new int[]{author, author % GRAPH_AUTHORS + 1} : new int[]{author};
                }, 1, TINY_MAX_UNREAD), layouts));
    }

    /** Redis's own values of every setting some layout changes, to put back before each turn. */
    private static Map<String, String> defaults(RedisConnections redis, List<Layout> layouts) {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (String name : new TreeSet<>(layouts.stream().flatMap(layout -> layout.redisConfig().keySet().stream()).toList())) {
            defaults.put(name, redis.shared().sync().configGet(name).values().iterator().next());
        }
        return defaults;
    }

    /** An empty Redis with the layout's settings; the script cache stays, so the baseline holds no script bodies. */
    private static void prepare(RedisConnections redis, Map<String, String> defaults, Layout layout) {
        var sync = redis.shared().sync();
        sync.flushall();
        defaults.forEach(sync::configSet);
        layout.redisConfig().forEach(sync::configSet);
    }
}
