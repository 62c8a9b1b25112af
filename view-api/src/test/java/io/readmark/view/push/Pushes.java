package io.readmark.view.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.readmark.schemas.Json;
import io.readmark.view.SseClient;
import io.readmark.view.ViewApiFixture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the unread stream tests expect of a push, apart from any one test class (whose fixtures would start with it). */
final class Pushes {

    private Pushes() {
    }

    static String path(long user) {
        return "/v1/users/" + user + "/unread/stream";
    }

    static JsonNode json(String data) {
        try {
            return Json.MAPPER.readTree(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The next push: its changes are {@code changes} (their versions aside, none newer than the counts'), and its
     * counts are what a GET answers right after.
     */
    static JsonNode expectPush(ViewApiFixture view, SseClient stream, long user, String changes) {
        JsonNode body = json(stream.nextEvent("counts").data());
        List<String> listed = new ArrayList<>();
        for (JsonNode change : body.get("changes")) {
            assertThat(change.path("version").asLong()).as("a change is in the counts pushed with it").isLessThanOrEqualTo(body.get("version").asLong());
            listed.add(withoutVersion(change));
        }
        assertThat("[" + String.join(",", listed) + "]").isEqualTo(changes);
        ObjectNode counts = ((ObjectNode) body).deepCopy();
        counts.remove("changes");
        counts.remove("changesOmitted");
        assertThat(counts.toString()).isEqualTo(view.get("/v1/users/" + user + "/unread").body());
        return body;
    }

    /** A listed change as JSON, without its version. */
    static String withoutVersion(JsonNode change) {
        ObjectNode copy = ((ObjectNode) change).deepCopy();
        copy.remove("version");
        return copy.toString();
    }
}
