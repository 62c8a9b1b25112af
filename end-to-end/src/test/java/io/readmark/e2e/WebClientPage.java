package io.readmark.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.readmark.launcher.ClientModules;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The web app of the browser tests, on an origin of its own (as an application's pages are, apart from the view API):
 * its page and script, the web client's compiled modules from the js-client jar, and {@code /token?user=}, its
 * backend's token endpoint, which mints a fresh user token for the view API each time and counts them.
 */
final class WebClientPage implements AutoCloseable {

    private static final String MODULES = "/client/";
    private static final Pattern USER = Pattern.compile("user=([1-9][0-9]{0,18})");

    private final HttpServer server;
    private final Map<Long, AtomicInteger> tokens = new ConcurrentHashMap<>();
    /** What the demo page serves too, checked as it checks them: the modules the Maven build compiled from clients/js. */
    private final ClientModules modules = new ClientModules();

    private WebClientPage(HttpServer server) {
        this.server = server;
    }

    static WebClientPage start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        WebClientPage page = new WebClientPage(server);
        server.createContext("/", page::serve);
        server.start();
        return page;
    }

    /** The page's origin, for the view API's CORS settings. */
    String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** How many tokens the client fetched for this user. */
    int tokensIssued(long userId) {
        return tokens.getOrDefault(userId, new AtomicInteger()).get();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/page.html")) send(exchange, "text/html", resource("web-client/page.html"));
            else if (path.equals("/page.js")) send(exchange, "text/javascript", resource("web-client/page.js"));
            else if (path.startsWith(MODULES)) send(exchange, "text/javascript", modules.module(path.substring(MODULES.length()))
                    .map(module -> module.getBytes(StandardCharsets.UTF_8)).orElse(null));
            else if (path.equals("/token")) send(exchange, "text/plain", token(exchange.getRequestURI().getQuery()));
            else send(exchange, "text/plain", null);
        }
    }

    private byte[] token(String query) {
        var user = USER.matcher(query == null ? "" : query);
        if (!user.matches()) return null;
        long userId = Long.parseLong(user.group(1));
        tokens.computeIfAbsent(userId, id -> new AtomicInteger()).incrementAndGet();
        return TestTokens.user(userId).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] resource(String name) throws IOException {
        return read(WebClientPage.class.getResourceAsStream(name));
    }

    private static byte[] read(InputStream resource) throws IOException {
        if (resource == null) return null;
        try (InputStream in = resource) {
            return in.readAllBytes();
        }
    }

    /** The body, or 404 when it is null. */
    private static void send(HttpExchange exchange, String type, byte[] body) throws IOException {
        if (body == null) {
            exchange.sendResponseHeaders(404, -1);
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
