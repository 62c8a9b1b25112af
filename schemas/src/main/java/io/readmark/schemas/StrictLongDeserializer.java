package io.readmark.schemas;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;

import java.io.IOException;

/**
 * 64-bit integers as JSON integers or as numeric strings in canonical decimal form only ({@code "42"}, never
 * {@code "+42"}, {@code " 42"} or {@code "042"}): the form the JSON Schemas allow and every client writes, so two
 * readers can never disagree on which id a string names. Floats, booleans and values beyond 64 bits are refused.
 */
final class StrictLongDeserializer extends StdScalarDeserializer<Long> {

    private final Class<?> target;

    StrictLongDeserializer(Class<?> target) {
        super(Long.class);
        this.target = target;
    }

    @Override
    public Long deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NUMBER_INT) {
            // Beyond 64 bits this throws Jackson's own "out of range of long".
            return parser.getLongValue();
        }
        if (token == JsonToken.VALUE_STRING) {
            String text = parser.getText();
            Long value = canonical(text);
            if (value != null) return value;
            return (Long) context.handleWeirdStringValue(target, text, "not a 64-bit integer in canonical decimal form");
        }
        return (Long) context.handleUnexpectedToken(target, parser);
    }

    /** The value of a decimal string that is exactly how {@link Long#toString(long)} writes it, else null. */
    static Long canonical(String text) {
        if (text.isEmpty() || text.length() > 20) return null;
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
        return Long.toString(value).equals(text) ? value : null;
    }
}
