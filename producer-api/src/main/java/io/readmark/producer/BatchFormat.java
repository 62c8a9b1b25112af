package io.readmark.producer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
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

    /**
     * {@code application/json}: one JSON array of events. Each element is
     * cut out of the body as it was sent, not rebuilt from a tree, which would quietly drop a key given twice.
     */
    JSON_ARRAY(IngestRoutes.JSON) {
        @Override
        List<byte[]> split(byte[] body, int maxEvents) {
            try (JsonParser parser = SPLITTER.createParser(body)) {
                JsonToken first = parser.nextToken();
                if (first == null) throw ApiException.badRequest(null, "the body is empty; " + EXPECTED_ARRAY);
                if (first != JsonToken.START_ARRAY) {
                    JsonNode root = Json.MAPPER.readTree(parser);
                    throw ApiException.badRequest(null, EXPECTED_ARRAY + ", got " + root.getNodeType().name().toLowerCase(Locale.ROOT));
                }
                List<byte[]> items = new ArrayList<>();
                JsonToken token = parser.nextToken();
                while (token != JsonToken.END_ARRAY) {
                    // Checked before the element is copied, so an oversized batch costs no more work.
                    requireAtMost(items.size() + 1, maxEvents);
                    int start = (int) parser.currentTokenLocation().getByteOffset();
                    parser.skipChildren();
                    token = parser.nextToken();
                    if (token == null) throw new JsonEOFException(parser, null, "the array is not closed");
                    // The element ends where the next token starts, less the comma and blanks between them.
                    items.add(element(body, start, (int) parser.currentTokenLocation().getByteOffset()));
                }
                if (parser.nextToken() != null) {
                    throw ApiException.badRequest(null, "the body goes on after the array; " + EXPECTED_ARRAY);
                }
                return items;
            } catch (JsonProcessingException e) {
                throw ApiException.badRequest(null, "the body is not valid JSON (" + describe(e) + "); " + EXPECTED_ARRAY);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
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
    /**
     * Reads a batch without decoding its events: where the elements start and end, the eventId of a bad one. It must
     * not refuse a key given twice, because that breaks one event, which {@code JsonSerde} rejects on its own, not the batch.
     */
    static final JsonFactory SPLITTER = Json.MAPPER.getFactory().rebuild()
            .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private final String mediaType;

    BatchFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    /** The format named by a Content-Type header; 415 for none, as for the single route, or any other media type. */
    static BatchFormat of(String contentType) {
        String mediaType = IngestRoutes.mediaType(contentType);
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

    private static byte[] element(byte[] body, int start, int next) {
        int end = next;
        while (end > start && isJsonBlank(body[end - 1])) end--;
        if (end > start && body[end - 1] == ',') end--;
        while (end > start && isJsonBlank(body[end - 1])) end--;
        return Arrays.copyOfRange(body, start, end);
    }

    private static boolean isJsonBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }

    /** Jackson's reason and where it stopped, without its echo of the input source. */
    private static String describe(JsonProcessingException e) {
        String reason = e.getOriginalMessage() == null ? e.getClass().getSimpleName()
                : e.getOriginalMessage().lines().findFirst().orElse("").replaceFirst(" \\(start marker at .*$", "");
        JsonLocation at = e.getLocation();
        return at == null ? reason : reason + " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }
}
