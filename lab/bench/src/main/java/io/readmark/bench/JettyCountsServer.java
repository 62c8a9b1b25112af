package io.readmark.bench;

import io.readmark.store.unread.UnreadReader;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;

/**
 * The counts read on Jetty 12's core API (no servlets), with its default thread pool and connector: a non-blocking
 * handler starts Lettuce's async HGETALL and returns; the answer is written, and the {@link Callback} completed, from
 * wherever the read completes. For {@link ServerComparisonPhase} only: production modules do not depend on Jetty.
 */
final class JettyCountsServer implements ServerCandidates.CountsServer {

    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server);

    JettyCountsServer(UnreadReader reader) throws Exception {
        connector.setHost(ServerCandidates.HOST);
        connector.setPort(0);
        server.addConnector(connector);
        // NonBlocking: Jetty may call it on the selector thread, as Netty calls the async route on its event loop.
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                long userId = ServerCandidates.userId(request.getHttpURI().getPath());
                if (!HttpMethod.GET.is(request.getMethod()) || userId < 0) return false; // Jetty answers 404
                reader.countsAsync(userId).whenComplete((counts, failure) -> {
                    if (failure != null) {
                        Response.writeError(request, response, callback, 503);
                        return;
                    }
                    try {
                        byte[] body = ServerCandidates.json(counts);
                        response.setStatus(200);
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                        response.write(true, ByteBuffer.wrap(body), callback);
                    } catch (RuntimeException e) {
                        callback.failed(e);
                    }
                });
                return true;
            }
        });
        try {
            server.start();
        } catch (Exception e) {
            server.stop();
            throw e;
        }
    }

    @Override
    public String name() {
        return "jetty";
    }

    @Override
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty did not stop", e);
        }
    }
}
