package io.readmark.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A real Prometheus (Debian's {@code prometheus}, which {@code .ci/run} installs) as a child process: it scrapes the
 * processor processes as job {@code readmark-processor} every second, at the ports they have now (a restarted
 * process has a new one; the target file is rewritten within half a second), and evaluates the given alert rules
 * every second. Asked which alerts are active and whether one fired since a moment.
 */
public final class PrometheusServer implements AutoCloseable {

    public static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration TARGETS_EVERY = Duration.ofMillis(500);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path logFile;
    private final int port;
    private final Thread targetWriter;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private PrometheusServer(Process process, Path logFile, int port, Thread targetWriter) {
        this.process = process;
        this.logFile = logFile;
        this.port = port;
        this.targetWriter = targetWriter;
    }

    /**
     * Starts Prometheus in {@code dir} and returns once it is ready.
     *
     * @param rules   the alert rules file's text
     * @param targets {@code host:port} of every processor to scrape, asked again every half second
     */
    public static PrometheusServer start(Path dir, String rules, Supplier<List<String>> targets) {
        try {
            Files.createDirectories(dir);
            Path targetFile = dir.resolve("processors.json");
            writeTargets(targetFile, targets.get());
            Files.writeString(dir.resolve("rules.yml"), rules);
            Files.writeString(dir.resolve("prometheus.yml"), """
                    global:
                      scrape_interval: %1$ds
                      scrape_timeout: %1$ds
                      evaluation_interval: %1$ds
                    rule_files: [rules.yml]
                    scrape_configs:
                      - job_name: readmark-processor
                        file_sd_configs:
                          - files: [processors.json]
                    """.formatted(INTERVAL.toSeconds()));
            int port = freePort();
            Path logFile = dir.resolve("prometheus.log");
            Process process;
            try {
                process = new ProcessBuilder("prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                        .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
            } catch (IOException e) {
                throw new IllegalStateException("prometheus is not installed (apt-get install prometheus)", e);
            }
            Thread writer = Thread.ofPlatform().daemon().name("prometheus-targets").start(() -> keepWriting(targetFile, targets));
            PrometheusServer server = new PrometheusServer(process, logFile, port, writer);
            Poll.until(server::ready, START_TIMEOUT, Duration.ofMillis(200), () -> "Prometheus not ready:\n" + server.log());
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set Prometheus up in " + dir, e);
        }
    }

    /** Alerts pending or firing now, by name. */
    public Set<String> active() {
        Set<String> names = new TreeSet<>();
        for (JsonNode alert : api("/api/v1/alerts").path("data").path("alerts")) names.add(alert.path("labels").path("alertname").asText());
        return names;
    }

    /** Whether {@code alert} was firing at any rule evaluation since {@code since} (Prometheus's own ALERTS series). */
    public boolean firedSince(String alert, Instant since) {
        long seconds = Math.max(1, Duration.between(since, Instant.now()).toSeconds() + 1);
        String query = "max_over_time(ALERTS{alertname=\"%s\",alertstate=\"firing\"}[%ds])".formatted(alert, seconds);
        return !api("/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)).path("data").path("result").isEmpty();
    }

    public String log() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile) : "";
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e + ")";
        }
    }

    @Override
    public void close() {
        targetWriter.interrupt();
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private boolean ready() {
        if (!process.isAlive()) throw new IllegalStateException("Prometheus exited:\n" + log());
        try {
            return get("/-/ready").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private JsonNode api(String path) {
        try {
            HttpResponse<String> response = get(path);
            if (response.statusCode() != 200) throw new IllegalStateException("Prometheus answered " + response.statusCode() + ": " + response.body());
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("Prometheus did not answer GET " + path, e);
        }
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void keepWriting(Path targetFile, Supplier<List<String>> targets) {
        List<String> written = null;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                List<String> now = targets.get();
                if (!now.equals(written)) {
                    writeTargets(targetFile, now);
                    written = now;
                }
                Thread.sleep(TARGETS_EVERY);
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // The next round writes again; a missed change only delays the scrape of a restarted process.
            }
        }
    }

    /** Written beside and moved, so Prometheus never reads half a file. */
    private static void writeTargets(Path targetFile, List<String> targets) throws IOException {
        Path next = targetFile.resolveSibling(targetFile.getFileName() + ".next");
        Files.writeString(next, Json.MAPPER.writeValueAsString(List.of(Map.of("targets", targets))));
        Files.move(next, targetFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
