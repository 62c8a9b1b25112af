package io.readmark.launcher;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.http.Problem;
import io.readmark.common.http.Response;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The demo inbox of local runs, served by the view API at {@code /demo}: a page that watches one user's unread
 * state over the event stream and sends reads, read-alls and seen marks through the producer API. It is static, built
 * on the web client's elements ({@code clients/js}, whose modules it serves from that jar under {@code /demo/client/});
 * the producer API's address is filled in when the page is asked for, as it is known only once that API listens.
 */
final class DemoPage {

    static final String PATH = "/demo";

    private final String html;
    private final String script;
    private final String style;
    private final Supplier<Optional<String>> producerApiUrl;
    private final ClientModules modules = new ClientModules();

    /** @param producerApiUrl the producer API's address, empty until it listens */
    DemoPage(Supplier<Optional<String>> producerApiUrl) {
        this.producerApiUrl = producerApiUrl;
        this.html = resource("demo.html");
        this.script = resource("demo.js");
        this.style = resource("demo.css");
    }

    /** Adds the page and its script and style to {@code server}. */
    void register(JsonHttpServer server) {
        server.route("GET", PATH, request -> secured(Response.text("text/html; charset=utf-8",
                        html.replace("{{PRODUCER_API_URL}}", producerApiUrl()))))
                .route("GET", PATH + "/demo.js", request -> secured(Response.text("text/javascript; charset=utf-8", script)))
                .route("GET", PATH + "/demo.css", request -> secured(Response.text("text/css; charset=utf-8", style)))
                .route("GET", PATH + "/client/{module}", request -> secured(Response.text("text/javascript; charset=utf-8",
                        module(request.pathVariable("module")))));
    }

    /** A module of the web client; names are checked first, so no request reaches another resource. */
    private String module(String name) {
        return modules.module(name).orElseThrow(() -> new ApiException(Problem.of(404, "Not Found", "no client module " + name)));
    }

    /** Scripts of this page only, and calls only to the two APIs: nothing injected could run or send data elsewhere. */
    private Response secured(Response response) {
        return response
                .withHeader("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "
                        + "connect-src 'self' " + producerApiUrl() + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
                .withHeader("X-Content-Type-Options", "nosniff")
                .withHeader("Cache-Control", "no-store");
    }

    private String producerApiUrl() {
        return producerApiUrl.get().orElseThrow(() -> ApiException.unavailable("Starting",
                "the producer API is not listening yet", 1));
    }

    private static String resource(String name) {
        return ClientModules.text(DemoPage.class.getResourceAsStream("demo/" + name), name)
                .orElseThrow(() -> new IllegalStateException("demo page resource missing: " + name));
    }
}
