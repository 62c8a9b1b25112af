package io.readmark.bench;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadReader;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads under the same concurrent load on the same Redis in the same run, interleaved ({@link InterleavedLoad}): the
 * view API's counts endpoint over keep-alive HTTP; raw HGETALL of the same hashes through one shared Lettuce
 * connection, decoded as the endpoint decodes them (its blog counts read, without HTTP); the two list routes, a page of one followed
 * author's unread blogs and the merged page across authors; the counts route as a polling badge reads it, with
 * {@code If-None-Match}; and the push route, a change to the pushed counts
 * ({@link PushClients}). Then, once, seed 000's KEYS + GETBIT count over its notices. Every answer is checked: a
 * failed or implausible one fails the measurement rather than flattering it.
 */
final class ReadApiPhase {

    static final String API = "api", RAW = "raw", AUTHOR_PAGE = "author_page", ITEMS = "items", API_NOTICES = "api_notices",
            PUSH = "push", CONDITIONAL = "conditional";
    /** Users a polling badge reads in the conditional variant, so that its clients' tags are soon all known. */
    static final int POLLED_USERS = 1_000;
    /** Page size of both list routes. */
    static final int PAGE_LIMIT = 20;

    record Result(InterleavedLoad.Results reads, ConcurrentLoad.Result seed000, ConcurrentLoad.Result seed000Isolated,
                  long keyspaceKeys) {
    }

    private ReadApiPhase() {
    }

    /**
     * Expects the state the pipeline and latency phases leave: every user has an unread post from every author they
     * follow, so both list routes answer non-empty pages for any user and any of their authors.
     */
    static Result run(BenchConfig config, String viewApiUrl, String redisUrl, RedisConnections redis, RedisStats stats,
                      UnreadKeys keys, PowerLawGraph graph, PrintStream err) throws Exception {
        URI view = URI.create(viewApiUrl);
        // The view API listens on 127.0.0.1 locally; "localhost" might resolve to ::1 first.
        String host = "localhost".equals(view.getHost()) ? "127.0.0.1" : view.getHost();
        int port = view.getPort();
        int users = graph.users();
        NoticeReaders.prepare(redis, keys, users);
        // Decoded as the view API decodes it (CountsHashOutput): the ratio then prices the HTTP edge, not a decoder.
        UnreadReader rawReader = new UnreadReader(redis.shared(), keys);
        InterleavedLoad.Results reads = InterleavedLoad.run(config, "reads", List.of(
                new InterleavedLoad.Variant(API, "counts API", countsClients(host, port, 0, 0L)),
                new InterleavedLoad.Variant(API_NOTICES, "counts API, notices", NoticeReaders.countsClients(host, port)),
                new InterleavedLoad.Variant(CONDITIONAL, "counts API, If-None-Match", conditionalClients(host, port, users)),
                new InterleavedLoad.Variant(RAW, "HGETALL", () -> userId -> {
                    UnreadCounts counts = rawReader.counts(userId);
                    if (counts.total() <= 0) throw new IllegalStateException("HGETALL of user " + userId + " answered " + counts);
                }),
                new InterleavedLoad.Variant(AUTHOR_PAGE, "author page", authorPageClients(host, port, graph, config.seed())),
                new InterleavedLoad.Variant(ITEMS, "merged items", itemsClients(host, port)),
                new InterleavedLoad.Variant(PUSH, "push", PushClients.clients(host, port, redis, keys))), users, stats, err);

        long keyspace = stats.keys();
        try (Seed000Counts seed000 = new Seed000Counts(redisUrl, config.notices())) {
            seed000.writeNotices(0, users, config.seed());
            seed000.writeNotices(Seed000Counts.ISOLATED_DATABASE, users, config.seed());
            ConcurrentLoad.Result beside = load(config, "seed 000", users, () -> seed000.open(0), err);
            ConcurrentLoad.Result isolated = load(config, "seed 000*", users,
                    () -> seed000.open(Seed000Counts.ISOLATED_DATABASE), err);
            return new Result(reads, beside, isolated, keyspace);
        }
    }

    /** Each client: its own kept-alive connection; every answer must be a 200 with that user's counts in it. */
    static ConcurrentLoad.ClientFactory countsClients(String host, int port) {
        return countsClients(host, port, 0, null);
    }

    /**
     * As {@link #countsClients(String, int)}, for user {@code userId + offset}, whose answer must count that many
     * notices unless {@code notices} is null (the server comparison's servers answer the blog counts alone).
     */
    static ConcurrentLoad.ClientFactory countsClients(String host, int port, long offset, Long notices) {
        String expectedNotices = notices == null ? "" : "\"notices\":" + notices + ",";
        return () -> new HttpClient(host, port) {
            @Override
            public void call(long userId) throws IOException {
                long user = userId + offset;
                String path = "/v1/users/" + user + "/unread";
                KeepAliveHttpClient.Answer answer = http.get(path);
                if (answer.status() != 200 || !answer.body().contains("\"userId\":" + user + ",")
                        || !answer.body().contains("\"total\":") || !answer.body().contains(expectedNotices)) {
                    throw implausible(path, answer);
                }
            }
        };
    }

    /**
     * A polling badge: the counts of one of the first {@value #POLLED_USERS} users, sending the tag of the client's last
     * answer for that user. A 304 must repeat the tag; a 200 (the first read, or the user changed) must bring the
     * user's counts and a new tag.
     */
    private static ConcurrentLoad.ClientFactory conditionalClients(String host, int port, int users) {
        int polled = Math.min(users, POLLED_USERS);
        return () -> new HttpClient(host, port) {
            private final String[] tags = new String[polled + 1];

            @Override
            public void call(long userId) throws IOException {
                int user = 1 + (int) ((userId - 1) % polled);
                String path = "/v1/users/" + user + "/unread";
                KeepAliveHttpClient.Answer answer = http.get(path, tags[user]);
                boolean fresh = answer.status() == 200 && answer.body().contains("\"userId\":" + user + ",") && answer.etag() != null
                        && !answer.etag().equals(tags[user]);
                if (!fresh && !(answer.status() == 304 && tags[user] != null && tags[user].equals(answer.etag()))) {
                    throw implausible(path + " (If-None-Match: " + tags[user] + ")", answer);
                }
                tags[user] = answer.etag();
            }
        };
    }

    /**
     * A random author the user follows, a page of {@value #PAGE_LIMIT}: the page must be a 200 with at least one item,
     * every item by that author (each pipeline run leaves one more post of every author in every follower's unread state).
     */
    private static ConcurrentLoad.ClientFactory authorPageClients(String host, int port, PowerLawGraph graph, long seed) {
        AtomicInteger opened = new AtomicInteger();
        return () -> new HttpClient(host, port) {
            private final SplittableRandom random = new SplittableRandom(seed + 7919L * opened.incrementAndGet());

            @Override
            public void call(long userId) throws IOException {
                int authorId = followedAuthor(graph, (int) userId, random);
                String path = "/v1/users/" + userId + "/unread/" + authorId + "?limit=" + PAGE_LIMIT;
                KeepAliveHttpClient.Answer answer = http.get(path);
                String body = answer.body();
                if (answer.status() != 200 || !body.startsWith("{\"items\":[{\"blogId\":")
                        || !body.contains("\"authorId\":" + authorId + ",") || !body.contains("\"nextCursor\":")) {
                    throw implausible(path, answer);
                }
            }
        };
    }

    /** The merged page of {@value #PAGE_LIMIT} across authors: a 200 with at least one item. */
    private static ConcurrentLoad.ClientFactory itemsClients(String host, int port) {
        return () -> new HttpClient(host, port) {
            @Override
            public void call(long userId) throws IOException {
                String path = "/v1/users/" + userId + "/unread/items?limit=" + PAGE_LIMIT;
                KeepAliveHttpClient.Answer answer = http.get(path);
                String body = answer.body();
                if (answer.status() != 200 || !body.startsWith("{\"items\":[{\"blogId\":") || !body.contains("\"nextCursor\":")) {
                    throw implausible(path, answer);
                }
            }
        };
    }

    /** One of the authors {@code user} follows, uniformly; every user of the graph follows at least one. */
    static int followedAuthor(PowerLawGraph graph, int user, SplittableRandom random) {
        int pick = random.nextInt(graph.followedCount(user));
        int[] chosen = {0};
        int[] index = {0};
        graph.forEachFollowed(user, author -> {
            if (index[0]++ == pick) chosen[0] = author;
        });
        return chosen[0];
    }

    /** A load client on its own kept-alive HTTP connection. */
    private abstract static class HttpClient implements ConcurrentLoad.Client {
        final KeepAliveHttpClient http;

        HttpClient(String host, int port) throws IOException {
            http = new KeepAliveHttpClient(host, port);
        }

        static IllegalStateException implausible(String path, KeepAliveHttpClient.Answer answer) {
            String body = answer.body();
            return new IllegalStateException("GET " + path + ": " + answer.status() + " "
                    + (body.length() > 300 ? body.substring(0, 300) + "…" : body));
        }

        @Override
        public void close() throws IOException {
            http.close();
        }
    }

    private static ConcurrentLoad.Result load(BenchConfig config, String label, int users, ConcurrentLoad.ClientFactory clients,
                                              PrintStream err) throws InterruptedException {
        return ConcurrentLoad.run(label, config.readConcurrency(), config.readWarmup(), config.readDuration(), users,
                config.seed(), clients, err);
    }
}
