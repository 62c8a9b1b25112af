package io.readmark.schemas;

import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.time.Instant;

/**
 * The one Jackson configuration of Readmark: strict about what a field holds, lenient about fields it does not know.
 * Instants are written as ISO-8601 strings; ids may arrive as JSON numbers or canonical numeric strings, never as floats
 * or booleans; a string field takes only a JSON string and an enum only its name. A key given twice in one object is
 * an error, not "the last wins": two readers of the same bytes must not see two different events.
 */
public final class Json {

    public static final ObjectMapper MAPPER = create();

    private Json() {
    }

    private static ObjectMapper create() {
        // Parse errors quote the offending input; 32 characters of it say enough and keep error answers small.
        JsonFactory factory = JsonFactory.builder()
                .errorReportConfiguration(ErrorReportConfiguration.builder().maxErrorTokenLength(32).maxRawContentLength(32).build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        JsonMapper mapper = JsonMapper.builder(factory)
                .addModule(new JavaTimeModule())
                .addModule(new SimpleModule("readmark-strict-scalars")
                        .addDeserializer(Instant.class, new StrictInstantDeserializer())
                        .addDeserializer(long.class, new StrictLongDeserializer(long.class))
                        .addDeserializer(Long.class, new StrictLongDeserializer(Long.class)))
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .build();
        // A boolean or an empty string is never an id, and a number is not a string (an eventId of 5 is a client bug).
        mapper.coercionConfigFor(LogicalType.Integer)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }
}
