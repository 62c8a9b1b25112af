package io.readmark.common.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * A method and a path template such as {@code /v1/users/{userId}/unread}; matches whole segments only.
 * {@code template} is the normalised template: a bounded name for metrics, unlike the path. A {@code blocking} route
 * runs on a virtual thread of its own; a non-blocking one runs on the connection's event loop and must only start
 * asynchronous work there (a Redis command through Lettuce's async API, say), which saves two thread hand-offs.
 */
public record Route(String method, String template, List<String> segments, AsyncHandler handler, boolean blocking) {

    private static final Pattern OUTER_SLASHES = Pattern.compile("^/+|/+$");
    private static final Pattern SLASHES = Pattern.compile("/+");

    /** A route that may block (wait for Kafka or Redis). */
    @FunctionalInterface
    public interface Handler {
        Response handle(Request request) throws Exception;
    }

    /** A route that never blocks: it answers with a stage that something else completes. */
    @FunctionalInterface
    public interface AsyncHandler {
        CompletionStage<Response> handle(Request request) throws Exception;
    }

    static Route of(String method, String template, Handler handler) {
        List<String> segments = split(template);
        return new Route(method, "/" + String.join("/", segments), segments,
                request -> CompletableFuture.completedFuture(handler.handle(request)), true);
    }

    static Route async(String method, String template, AsyncHandler handler) {
        List<String> segments = split(template);
        return new Route(method, "/" + String.join("/", segments), segments, handler, false);
    }

    /** The path variables when a path split by {@link #split} fits this template, empty otherwise. */
    Optional<Map<String, String>> match(List<String> actual) {
        if (actual.size() != segments.size()) return Optional.empty();
        Map<String, String> variables = new HashMap<>();
        for (int i = 0; i < segments.size(); i++) {
            String expected = segments.get(i);
            if (expected.startsWith("{") && expected.endsWith("}")) {
                variables.put(expected.substring(1, expected.length() - 1), actual.get(i));
            } else if (!expected.equals(actual.get(i))) {
                return Optional.empty();
            }
        }
        return Optional.of(variables);
    }

    /** A template's segments, ignoring leading, trailing and repeated slashes. */
    static List<String> split(String path) {
        return List.of(SLASHES.split(OUTER_SLASHES.matcher(path).replaceAll("")));
    }
}
