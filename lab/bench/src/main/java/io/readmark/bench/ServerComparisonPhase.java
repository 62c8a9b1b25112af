package io.readmark.bench;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadReader;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The same counts read served by each of {@link ServerCandidates} — Netty through our JsonHttpServer (production),
 * the JDK's HttpServer, Jetty 12 — under the same load generator as the counts API,
 * interleaved. All read through one {@link UnreadReader} on the benchmark's shared Lettuce connection, the one the
 * raw HGETALL baseline uses, so the servers differ in nothing but the library and its threading.
 */
final class ServerComparisonPhase {

    private ServerComparisonPhase() {
    }

    /** The measurements by server name, in the order netty, jdk, jetty. */
    static InterleavedLoad.Results run(BenchConfig config, RedisConnections redis, RedisStats stats, UnreadKeys keys,
                                       int users, PrintStream err) throws Exception {
        UnreadReader reader = new UnreadReader(redis.shared(), keys);
        List<ServerCandidates.CountsServer> servers = ServerCandidates.startAll(reader);
        try {
            List<InterleavedLoad.Variant> variants = new ArrayList<>();
            for (ServerCandidates.CountsServer server : servers) {
                variants.add(new InterleavedLoad.Variant(server.name(), server.name() + " server",
                        ReadApiPhase.countsClients(ServerCandidates.HOST, server.port())));
            }
            return InterleavedLoad.run(config, "server", variants, users, stats, err);
        } finally {
            servers.forEach(ServerCandidates.CountsServer::close);
        }
    }
}
