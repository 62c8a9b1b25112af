package io.readmark.producer;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.common.http.ApiException;
import io.readmark.common.http.Problem;
import io.readmark.schemas.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How a batch body lists its events, chosen by Content-Type. Each format splits the body into one JSON payload per
 * event without decoding them, so that every event is decoded, and may fail, on its own.
 */
enum BatchFormat {

    /** {@code application/json}, also taken when there is no Content-Type: one JSON array of events. */
    JSON_ARRAY(IngestRoutes.JSON) {
        @Override
        List<byte[]> split(byte[] body, int maxEvents) {
            JsonNode root;
            try {
                root = Json.MAPPER.readTree(body);
            } catch (JsonProcessingException e) {
                throw ApiException.badRequest(null, "the body is not valid JSON (" + describe(e) + "); " + EXPECTED_ARRAY);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (root.isMissingNode()) throw ApiException.badRequest(null, "the body is empty; " + EXPECTED_ARRAY);
            if (!root.isArray()) {
                throw ApiException.badRequest(null, EXPECTED_ARRAY + ", got " + root.getNodeType().name().toLowerCase(Locale.ROOT));
            }
            // Checked before any element is copied, so an oversized batch costs no more work.
            requireAtMost(root.size(), maxEvents);
            List<byte[]> items = new ArrayList<>(root.size());
            for (JsonNode item : root) items.add(toBytes(item));
            return items;
        }
    },

    /** {@code application/x-ndjson}: one event per line; blank lines are not events. */
    NDJSON("application/x-ndjson") {
        @Override
        List<byte[]> split(byte[] body, int maxEvents) {
            List<byte[]> items = new ArrayList<>();
            int start = 0;
            while (start < body.length) {
                int end = start;
                while (end < body.length && body[end] != '\n') end++;
                if (!isBlank(body, start, end)) {
                    requireAtMost(items.size() + 1, maxEvents);
                    items.add(Arrays.copyOfRange(body, start, end));
                }
                start = end + 1;
            }
            return items;
        }
    };

    private static final String EXPECTED_ARRAY = "expected a JSON array of events";

    private final String mediaType;

    BatchFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    /** The format named by a Content-Type header; 415 for any other media type. */
    static BatchFormat of(String contentType) {
        String mediaType = IngestRoutes.mediaType(contentType);
        if (mediaType == null) return JSON_ARRAY;
        for (BatchFormat format : values()) {
            if (format.mediaType.equals(mediaType)) return format;
        }
        throw IngestRoutes.unsupportedMediaType(JSON_ARRAY.mediaType + " or " + NDJSON.mediaType, contentType);
    }

    /** One JSON payload per event, in body order; 400 when the body cannot be split, 413 beyond {@code maxEvents}. */
    abstract List<byte[]> split(byte[] body, int maxEvents);

    private static void requireAtMost(int events, int maxEvents) {
        if (events > maxEvents) {
            throw new ApiException(Problem.of(413, "Payload too large",
                    "a batch may hold at most " + maxEvents + " events"));
        }
    }

    private static boolean isBlank(byte[] body, int start, int end) {
        for (int i = start; i < end; i++) {
            byte b = body[i];
            if (b != ' ' && b != '\t' && b != '\r') return false;
        }
        return true;
    }

    private static byte[] toBytes(JsonNode item) {
        try {
            return Json.MAPPER.writeValueAsBytes(item);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed JSON tree is always writable", e);
        }
    }

    /** Jackson's reason and where it stopped, without its echo of the input source. */
    private static String describe(JsonProcessingException e) {
        String reason = e.getOriginalMessage() == null ? e.getClass().getSimpleName()
                : e.getOriginalMessage().lines().findFirst().orElse("").replaceFirst(" \\(start marker at .*$", "");
        JsonLocation at = e.getLocation();
        return at == null ? reason : reason + " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }
}
