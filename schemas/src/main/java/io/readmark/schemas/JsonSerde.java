package io.readmark.schemas;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;
import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.Map;

/**
 * The one JSON serde: any record type, null in and null out, Kafka failures as {@link SerializationException}.
 * {@link #decode(byte[])} is the strict entry point that names the offending field.
 */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {

    private final Class<T> type;

    public JsonSerde(Class<T> type) {
        this.type = type;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) return null;
        try {
            return Json.MAPPER.writeValueAsBytes(data);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot write " + type.getSimpleName() + " as JSON", e);
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) return null;
        try {
            return decode(data);
        } catch (InvalidEventException e) {
            throw new SerializationException("invalid " + type.getSimpleName() + " on " + topic + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses and validates one payload: exactly one JSON object, never null.
     *
     * @throws InvalidEventException for every payload that is not a valid {@code T}, whatever is wrong with it
     */
    public T decode(byte[] json) {
        if (json == null || json.length == 0) throw new InvalidEventException(null, "empty payload, expected a JSON object");
        try (JsonParser parser = Json.MAPPER.createParser(json)) {
            JsonToken first = parser.nextToken();
            // Checked before binding: Jackson would read a bare string or number as a type id, and null as no value.
            if (first != JsonToken.START_OBJECT) {
                throw new InvalidEventException(null, first == null
                        ? "empty payload, expected a JSON object"
                        : "expected one JSON object, found " + tokenName(first));
            }
            return Json.MAPPER.readValue(parser, type);
        } catch (IOException e) {
            if (cutOff(e, json.length)) {
                // The field it ended in is not what is wrong with it.
                throw new InvalidEventException(null, "not valid JSON: the payload ends in the middle of a value");
            }
            throw describe(e);
        } catch (InvalidEventException e) {
            throw e;
        } catch (RuntimeException e) {
            // A payload no rule above foresaw is still a bad payload: its reader must be able to reject it and go on.
            throw new InvalidEventException(null, "cannot be read as " + type.getSimpleName() + ": " + e.getClass().getSimpleName());
        }
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // nothing to configure: the mapper is fixed
    }

    @Override
    public void close() {
        // stateless
    }

    /** Whether reading failed because the payload ended early, however Jackson words it. */
    private static boolean cutOff(IOException e, int length) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonEOFException) return true;
            if (cause instanceof StreamReadException read && read.getLocation() != null
                    && read.getLocation().getByteOffset() >= length) {
                return true;
            }
        }
        return false;
    }

    /** Turns Jackson's account of a failure into the field and the rule it broke. */
    private static InvalidEventException describe(IOException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidEventException invalid) return invalid;
        }
        if (e instanceof InvalidTypeIdException typeId) {
            return typeId.getTypeId() == null
                    ? new InvalidEventException("type", "is required")
                    : new InvalidEventException("type", "unknown event type '" + prefix(typeId.getTypeId()) + "'");
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            return new InvalidEventException(path(mapping), expectation(mapping));
        }
        if (e instanceof StreamReadException read && read.getOriginalMessage() != null
                && read.getOriginalMessage().startsWith("Duplicate field '") && currentName(read) != null) {
            return new InvalidEventException(currentName(read), "appears more than once");
        }
        if (e instanceof StreamReadException read && read.getProcessor() != null && currentName(read) != null) {
            return new InvalidEventException(currentName(read), "is not valid: " + read.getOriginalMessage());
        }
        if (e instanceof MismatchedInputException) {
            return new InvalidEventException(null, "expected one JSON object");
        }
        return new InvalidEventException(null, "not valid JSON: " + firstLine(e));
    }

    /** At most 32 characters of a client's value: error texts must not carry its input back whole. */
    private static String prefix(String value) {
        return value.length() <= 32 ? value : value.substring(0, 32) + "…";
    }

    private static String expectation(JsonMappingException e) {
        String message = e.getOriginalMessage();
        if (message.startsWith("Missing creator property") || message.startsWith("Missing required creator property")
                || message.startsWith("Null value for creator property") || message.startsWith("Cannot map `null`")) {
            return "is required";
        }
        Class<?> target = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType()
                : e.getCause() instanceof InputCoercionException outOfRange ? outOfRange.getTargetType() : null;
        if (target == long.class || target == Long.class) return "must be a positive 64-bit integer";
        if (target != null && Temporal.class.isAssignableFrom(target)) return "must be an ISO-8601 UTC instant such as 2026-01-01T12:00:00Z";
        if (target != null && target.isEnum()) return "must be one of " + Arrays.toString(target.getEnumConstants());
        if (target == String.class) return "must be a string";
        return "is not valid: " + message;
    }

    private static String path(JsonMappingException e) {
        // As a reader writes it: blogs[3].blogId.
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() == null) path.append('[').append(ref.getIndex()).append(']');
            else path.append(path.isEmpty() ? "" : ".").append(ref.getFieldName());
        }
        return path.toString();
    }

    private static String currentName(StreamReadException e) {
        if (e.getProcessor() == null) return null;
        try {
            return e.getProcessor().currentName();
        } catch (IOException | RuntimeException ignored) {
            return null;
        }
    }

    private static String tokenName(JsonToken token) {
        return switch (token) {
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name() : "'" + token.asString() + "'";
        };
    }

    private static String firstLine(IOException e) {
        String message = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse(message);
    }
}
