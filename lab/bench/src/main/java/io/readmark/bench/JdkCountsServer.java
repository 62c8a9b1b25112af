package io.readmark.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.readmark.store.unread.UnreadReader;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The counts read on the JDK's {@code com.sun.net.httpserver}: every request on a virtual thread of its own, which
 * blocks on a synchronous HGETALL. For {@link ServerComparisonPhase} only.
 */
final class JdkCountsServer implements ServerCandidates.CountsServer {

    private final UnreadReader reader;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpServer server;

    JdkCountsServer(UnreadReader reader) throws IOException {
        this.reader = reader;
        server = HttpServer.create(new InetSocketAddress(ServerCandidates.HOST, 0), 1024);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            long userId = ServerCandidates.userId(exchange.getRequestURI().getRawPath());
            if (!"GET".equals(exchange.getRequestMethod()) || userId < 0) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body;
            try {
                body = ServerCandidates.json(reader.counts(userId));
            } catch (RuntimeException e) {
                exchange.sendResponseHeaders(503, -1); // the load generator fails the measurement on any non-200
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public String name() {
        return "jdk";
    }

    @Override
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
