package io.readmark.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.readmark.common.http.HttpLimits;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.http.Request;
import io.readmark.common.http.Response;
import io.readmark.schemas.Json;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HTTP server libraries serving the same counts read, for {@link ServerComparisonPhase} only: none of this is
 * production code. Each serves {@code GET /v1/users/{userId}/unread} with the same {@link UnreadReader} over the same
 * Redis connection and the same JSON body (written by {@link Json#MAPPER}), and nothing else — no authentication,
 * metrics or circuit breakers — so the only difference between them is the server library and how it runs the read.
 */
final class ServerCandidates {

    /** One running candidate. */
    interface CountsServer extends AutoCloseable {
        /** Short name for the report: netty, jdk, jetty. */
        String name();

        int port();

        @Override
        void close();
    }

    /** The view API's counts body without the optional display part. */
    record CountsBody(long userId, long total, long unseen, Map<String, Long> byAuthor) {
        static CountsBody of(UnreadCounts counts) {
            Map<String, Long> byAuthor = new LinkedHashMap<>();
            counts.byAuthor().forEach((authorId, count) -> byAuthor.put(Long.toString(authorId), count));
            return new CountsBody(counts.userId(), counts.total(), counts.unseen(), byAuthor);
        }
    }

    static final String HOST = "127.0.0.1";
    private static final String PREFIX = "/v1/users/";
    private static final String SUFFIX = "/unread";

    private ServerCandidates() {
    }

    /** Every candidate, started on free ports of the loopback interface; the caller closes them. */
    static List<CountsServer> startAll(UnreadReader reader) throws Exception {
        List<CountsServer> servers = new ArrayList<>();
        try {
            servers.add(netty(reader));
            servers.add(new JdkCountsServer(reader));
            servers.add(new JettyCountsServer(reader));
            return servers;
        } catch (Exception | Error e) {
            servers.forEach(CountsServer::close);
            throw e;
        }
    }

    /**
     * Netty through our own {@link JsonHttpServer}, as production runs it: a non-blocking route on the event loop that
     * answers when Lettuce's async HGETALL completes. With the bench's idle timeout, as the view API in the bench.
     */
    static CountsServer netty(UnreadReader reader) throws IOException {
        JsonHttpServer server = new JsonHttpServer("bench-netty")
                .limits(HttpLimits.defaults().withTimeouts(HttpLimits.defaults().requestTimeout(), Bench.LONG_IDLE_TIMEOUT))
                .asyncRoute("GET", PREFIX + "{userId}" + SUFFIX, request -> {
            long userId = Request.positiveId("userId", request.pathVariable("userId"));
            return reader.countsAsync(userId).thenApply(counts -> Response.ok(CountsBody.of(counts)));
        }).start(HOST, 0);
        return new CountsServer() {
            @Override
            public String name() {
                return "netty";
            }

            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }

    /** The user id of {@code /v1/users/{userId}/unread}, or -1 for any other path. */
    static long userId(String path) {
        if (path == null || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) return -1;
        int from = PREFIX.length(), to = path.length() - SUFFIX.length();
        if (to <= from || to - from > 18) return -1;
        long id = 0;
        for (int i = from; i < to; i++) {
            char c = path.charAt(i);
            if (c < '0' || c > '9') return -1;
            id = id * 10 + (c - '0');
        }
        return id > 0 ? id : -1;
    }

    static byte[] json(UnreadCounts counts) {
        try {
            return Json.MAPPER.writeValueAsBytes(CountsBody.of(counts));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
