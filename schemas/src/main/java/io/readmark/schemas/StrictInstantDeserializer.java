package io.readmark.schemas;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;

import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Instants only as ISO-8601 strings with an offset ({@code 2026-01-01T12:00:00Z}); bare numbers are ambiguous (s or ms?).
 * Years outside 0000–9999 are refused, as RFC 3339 does: they are never meant, and beyond ±292 million years an
 * instant does not even fit the epoch milliseconds everything downstream computes.
 */
final class StrictInstantDeserializer extends StdScalarDeserializer<Instant> {

    private static final int MIN_YEAR = 0;
    private static final int MAX_YEAR = 9999;

    StrictInstantDeserializer() {
        super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        if (parser.currentToken() != JsonToken.VALUE_STRING) {
            return (Instant) context.handleUnexpectedToken(Instant.class, parser);
        }
        String text = parser.getText().trim();
        OffsetDateTime parsed;
        try {
            parsed = OffsetDateTime.parse(text);
        } catch (DateTimeParseException e) {
            return (Instant) context.handleWeirdStringValue(Instant.class, text, "not an ISO-8601 instant");
        }
        if (parsed.getYear() < MIN_YEAR || parsed.getYear() > MAX_YEAR) {
            return (Instant) context.handleWeirdStringValue(Instant.class, text, "year outside " + MIN_YEAR + "-" + MAX_YEAR);
        }
        return parsed.toInstant();
    }
}
