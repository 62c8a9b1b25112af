package io.readmark.bench;

import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;

import java.io.PrintStream;
import java.net.URI;
import java.util.Map;

/**
 * Reads under the same concurrent load, one after the other on the same Redis in the same run: the view API's
 * counts endpoint over keep-alive HTTP; raw HGETALL of the same hashes through one shared Lettuce connection (as
 * the view API itself reads); and seed 000's KEYS + GETBIT count over its notices. Every answer is checked.
 */
final class ReadApiPhase {

    record Result(ConcurrentLoad.Result api, CpuUsage apiCpu, ConcurrentLoad.Result raw, CpuUsage rawCpu,
                  ConcurrentLoad.Result seed000, ConcurrentLoad.Result seed000Isolated, long keyspaceKeys) {
    }

    private ReadApiPhase() {
    }

    static Result run(BenchConfig config, String viewApiUrl, String redisUrl, RedisConnections redis, RedisStats stats,
                      UnreadKeys keys, int users, PrintStream err) throws Exception {
        URI view = URI.create(viewApiUrl);
        // The view API listens on 127.0.0.1 locally; "localhost" might resolve to ::1 first.
        String host = "localhost".equals(view.getHost()) ? "127.0.0.1" : view.getHost();
        CpuUsage.Meter apiMeter = CpuUsage.start(stats);
        ConcurrentLoad.Result api = PhaseRecording.during(config.jfrDirectory(), "reads-api", err,
                () -> load(config, "counts API", users, viewApiClients(host, view.getPort()), err));
        CpuUsage apiCpu = apiMeter.stop();

        CpuUsage.Meter rawMeter = CpuUsage.start(stats);
        ConcurrentLoad.Result raw = load(config, "HGETALL", users, () -> userId -> {
            Map<String, String> counts = redis.shared().sync().hgetall(keys.counts(userId));
            if (counts == null) throw new IllegalStateException("HGETALL of user " + userId + " answered nothing");
        }, err);
        CpuUsage rawCpu = rawMeter.stop();

        long keyspace = stats.keys();
        try (Seed000Counts seed000 = new Seed000Counts(redisUrl, config.notices())) {
            seed000.writeNotices(0, users, config.seed());
            seed000.writeNotices(Seed000Counts.ISOLATED_DATABASE, users, config.seed());
            ConcurrentLoad.Result beside = load(config, "seed 000", users, () -> seed000.open(0), err);
            ConcurrentLoad.Result isolated = load(config, "seed 000*", users,
                    () -> seed000.open(Seed000Counts.ISOLATED_DATABASE), err);
            return new Result(api, apiCpu, raw, rawCpu, beside, isolated, keyspace);
        }
    }

    /** Each client: its own kept-alive connection; every answer must be a 200 with counts in it. */
    private static ConcurrentLoad.ClientFactory viewApiClients(String host, int port) {
        return () -> {
            KeepAliveHttpClient http = new KeepAliveHttpClient(host, port);
            return new ConcurrentLoad.Client() {
                @Override
                public void call(long userId) throws Exception {
                    KeepAliveHttpClient.Answer answer = http.get("/v1/users/" + userId + "/unread");
                    if (answer.status() != 200 || !answer.body().contains("\"total\"")) {
                        throw new IllegalStateException("GET counts of user " + userId + ": " + answer.status() + " " + answer.body());
                    }
                }

                @Override
                public void close() throws java.io.IOException {
                    http.close();
                }
            };
        };
    }

    private static ConcurrentLoad.Result load(BenchConfig config, String label, int users, ConcurrentLoad.ClientFactory clients,
                                              PrintStream err) throws InterruptedException {
        return ConcurrentLoad.run(label, config.readConcurrency(), config.readWarmup(), config.readDuration(), users,
                config.seed(), clients, err);
    }
}
