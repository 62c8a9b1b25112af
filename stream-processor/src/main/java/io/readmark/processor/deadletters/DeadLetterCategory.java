package io.readmark.processor.deadletters;

import io.readmark.schemas.InvalidEventException;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Why a record was dead-lettered, in a word a metric label and a header can carry (the reason text quotes bad values,
 * so it cannot be a label).
 */
public enum DeadLetterCategory {
    /** Not one JSON object: not JSON, empty, a tombstone, an array, nested too deep. */
    MALFORMED,
    /** Larger than an event may be. */
    OVERSIZE,
    /** No, an unknown, or another topic's event type. */
    TYPE,
    /** The record key is not the event's key id. */
    KEY,
    /** A field is missing or breaks its rule. */
    FIELD,
    /** On an internal partition that is not its author's (put there by something other than the processor). */
    PARTITION;

    private final String label = name().toLowerCase(Locale.ROOT);

    String label() {
        return label;
    }

    /** Every category's label: the values of the {@code reason} tag of the dead-letter counter. */
    public static List<String> labels() {
        return Arrays.stream(values()).map(DeadLetterCategory::label).toList();
    }

    static DeadLetterCategory of(InvalidEventException reason) {
        if (reason.field() == null) return MALFORMED;
        return switch (reason.field()) {
            case "type" -> TYPE;
            case "key" -> KEY;
            default -> FIELD;
        };
    }
}
