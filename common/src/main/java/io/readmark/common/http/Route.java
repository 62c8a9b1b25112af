package io.readmark.common.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A method and a path template such as {@code /v1/users/{userId}/unread}; matches whole segments only. */
public record Route(String method, List<String> segments, Handler handler) {

    @FunctionalInterface
    public interface Handler {
        Response handle(Request request) throws Exception;
    }

    static Route of(String method, String template, Handler handler) {
        return new Route(method, split(template), handler);
    }

    /** The template, normalised ({@code /v1/users/{userId}/unread}): a bounded name for metrics, unlike the path. */
    String template() {
        return "/" + String.join("/", segments);
    }

    /** The path variables when {@code path} fits this template, empty otherwise. */
    Optional<Map<String, String>> match(String path) {
        List<String> actual = split(path);
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

    private static List<String> split(String path) {
        return List.of(path.replaceAll("^/+|/+$", "").split("/+"));
    }
}
