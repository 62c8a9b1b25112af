package io.readmark.bench;

import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.Settings;
import io.readmark.common.http.HttpLimits;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.launcher.ViewApiRestart;
import io.readmark.schemas.Json;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;
import io.readmark.view.push.StreamSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./readmark bench --streams}: what an open unread stream costs. One view API in this JVM on an embedded Redis
 * of its own; per round, a {@link StreamHolders} JVM opens the round's streams, they are held idle for a window, then a
 * share of their users get changes at a steady rate, then one post reaches them all ({@link StreamRound}); last, the
 * view API restarts under held streams ({@link StreamStorm}). The view API's stream limit is raised to the largest
 * round or storm unless set, so they measure cost, not the limit. Writes {@code streams-latest.txt} and {@code .json}.
 */
public final class StreamLoad {

    /** Users past this id are the rounds' own: round r streams users OFFSET + r × STRIDE onwards. */
    private static final long OFFSET = 3_000_000_000L, STRIDE = 100_000_000L;

    private StreamLoad() {
    }

    /** What the phase measured: each round, and the storm if there was one (else null). */
    public record Report(List<StreamRound.Result> rounds, StreamStorm.Result storm) {
    }

    /** Runs every round and the storm, writes the report and returns it. */
    public static Report run(Settings settings, PrintStream out, PrintStream err) throws Exception {
        StreamLoadConfig config = StreamLoadConfig.from(settings);
        String most = Integer.toString(Math.max(config.storm(),
                config.streams().stream().mapToInt(Integer::intValue).max().orElseThrow()));
        try (EmbeddedRedis server = EmbeddedRedis.start(0);
             RedisConnections redis = RedisConnections.connect(server.url(), Duration.ofSeconds(60), false);
             RedisStats stats = new RedisStats(redis)) {
            Settings view = settings
                    .withDefaults(Map.of(AuthConfig.MODE, "off", StreamSettings.MAX_STREAMS, most,
                            HttpLimits.MAX_CONNECTIONS_PER_CLIENT, "0"))
                    .withOverrides(Map.of(ViewApiConfig.REDIS_URL, server.url(), ViewApiConfig.HOST, "127.0.0.1",
                            ViewApiConfig.PORT, "0", ViewApiConfig.MANAGEMENT_PORT, "0"));
            ViewApiConfig viewConfig = ViewApiConfig.from(view);
            List<StreamRound.Result> results = new ArrayList<>();
            StreamStorm.Result storm = null;
            try (RestartableView api = new RestartableView(view)) {
                err.printf("streams: baseline, %d s idle with no stream%n", config.idle().toSeconds());
                StreamRound.Baseline baseline = StreamRound.baseline(config, stats);
                for (int round = 0; round < config.streams().size(); round++) {
                    int count = config.streams().get(round);
                    StreamRound.Result result = new StreamRound(config, redis, stats, viewConfig.keys(), err)
                            .run(count, OFFSET + round * STRIDE, api.port(), baseline, Integer.toString(count), api::dropped);
                    results.add(result);
                    err.println(row(result));
                }
                if (config.storm() > 0) {
                    storm = StreamStorm.run(config.storm(), OFFSET + config.streams().size() * STRIDE, api, stats, err);
                    err.println(storm);
                }
            }
            write(config, stats.version(), viewConfig, results, storm, out);
            return new Report(results, storm);
        }
    }

    /** The view API of the rounds, which the storm restarts on its port. */
    private static final class RestartableView implements StreamStorm.View, AutoCloseable {
        private final Settings settings;
        private ViewApi api;

        RestartableView(Settings settings) throws Exception {
            this.settings = settings;
            this.api = ViewApi.start(ViewApiConfig.from(settings));
            awaitReady(api.port());
        }

        @Override
        public int port() {
            return api.port();
        }

        @Override
        public Map<String, Long> dropped() {
            return StreamLoad.dropped(api.managementPort());
        }

        @Override
        public void restart() {
            int port = api.port();
            api.close();
            ViewApiConfig again = ViewApiConfig.from(settings.withOverrides(Map.of(ViewApiConfig.PORT, Integer.toString(port))));
            api = ViewApiRestart.onSamePort(again, server -> { });
        }

        @Override
        public void close() {
            api.close();
        }
    }

    private static void awaitReady(int port) throws Exception {
        HttpRequest read = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/users/1/unread")).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (http.send(read, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                if (System.nanoTime() > end) throw new IllegalStateException("the view API did not get ready within 30 s");
                Thread.sleep(50); // polling another component's start-up
            }
        }
    }

    private static final Pattern DROPPED = Pattern.compile("(?m)^readmark_streams_dropped_total\\{[^}]*reason=\"([^\"]+)\"[^}]*} (\\S+)$");

    /** The view API's count of streams it closed or refused, by reason, from its metrics. */
    private static Map<String, Long> dropped(int managementPort) {
        HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/metrics")).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            Matcher sample = DROPPED.matcher(http.send(scrape, HttpResponse.BodyHandlers.ofString()).body());
            Map<String, Long> dropped = new LinkedHashMap<>();
            while (sample.find()) dropped.put(sample.group(1), (long) Double.parseDouble(sample.group(2)));
            return dropped;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the view API's metrics", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static final String HEADER = String.format(Locale.ROOT, "%8s %8s %7s %8s %9s %9s %9s %7s %6s %9s %9s %7s %7s %8s %8s %9s %9s %6s %8s %7s %7s %7s",
            "streams", "open", "refused", "setup/s", "heap B", "RSS B", "Redis B", "clients", "chan", "idle JVM", "idle Rds",
            "pushes", "missing", "p50 ms", "p99 ms", "JVM µs/p", "Rds µs/p", "ended", "burst ms", "b p50", "b p99", "b last");

    private static String row(StreamRound.Result r) {
        return String.format(Locale.ROOT, "%8d %8d %7d %8.0f %9.0f %9.0f %9.0f %7d %6.2f %9.3f %9.3f %7d %7d %8.1f %8.1f %9.0f %9.1f %6d %8.0f %7.0f %7.0f %7.0f",
                r.requested(), r.opened(), r.refused(), r.setupPerSecond(), r.heapBytes(), r.rssBytes(), r.redisBytes(),
                r.redisClients(), r.channelsPerStream(), r.idleJavaMicros(), r.idleRedisMicros(), r.pushes(), r.missing(),
                r.p50Millis(), r.p99Millis(), r.javaMicrosPerPush(), r.redisMicrosPerPush(), r.endedByServer(),
                r.burst().deliveriesMillis(), r.burst().p50Millis(), r.burst().p99Millis(), r.burst().lastAfterDeliveriesMillis());
    }

    private static void write(StreamLoadConfig config, String redisVersion, ViewApiConfig view, List<StreamRound.Result> results,
                              StreamStorm.Result storm, PrintStream out) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "readmark bench --streams, %s, Redis %s, %d cores, heartbeat %s; idle %s, then %d changes/s"
                        + " to %.0f %% of the users for %s%n", Instant.now(), redisVersion, Runtime.getRuntime().availableProcessors(),
                view.streams().heartbeat(), config.idle(), config.changeRate(), config.liveFraction() * 100, config.load()));
        text.append("per stream: heap, RSS, Redis memory, idle CPU (µs per second); per push: CPU beyond idle\n");
        text.append(HEADER).append('\n');
        results.forEach(result -> text.append(row(result)).append('\n'));
        results.stream().filter(result -> result.error() != null || result.disturbance() != null).forEach(result -> text.append(
                String.format("%d streams: %s%n", result.requested(), result.error() != null ? "client error " + result.error()
                        : "disturbed by " + result.disturbance())));
        results.stream().filter(result -> !result.droppedByReason().isEmpty()).forEach(result -> text.append(
                String.format("%d streams: closed or refused by the view API: %s%n", result.requested(), result.droppedByReason())));
        text.append("burst: one post to every stream's user; deliveries' time, push p50/p99 from the first, last push after the last\n");
        if (storm != null) {
            text.append(String.format(Locale.ROOT, "storm: %,d streams, restart to all %,d back %.1f s; reads %,d, 5xx %,d, refused"
                            + " connections %,d; Redis %.0f ops/s before, peak %.0f; closed or refused %s%n", storm.opened(), storm.back(),
                    storm.allBackSeconds(), storm.reads(), storm.reads5xx(), storm.readsRefused(), storm.redisOpsBefore(),
                    storm.redisOpsPeak(), storm.droppedByReason()));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("redis_version", redisVersion);
        json.put("heartbeat", view.streams().heartbeat().toString());
        json.put("change_rate", config.changeRate());
        json.put("live_fraction", config.liveFraction());
        json.put("rounds", results);
        json.put("storm", storm);
        Files.createDirectories(config.outputDir());
        Path txt = config.outputDir().resolve("streams-latest.txt");
        Files.writeString(txt, text);
        Files.writeString(config.outputDir().resolve("streams-latest.json"),
                Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(json));
        out.print(text);
        out.printf("%nwritten: %s%n", txt);
    }
}
