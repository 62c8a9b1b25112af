package io.readmark.schemas;

/** The field rules of the wire contract, applied when an event record is built, whether from JSON or from code. */
final class Validation {

    static final int MAX_EVENT_ID_LENGTH = 200;

    private Validation() {
    }

    static void eventId(String eventId) {
        if (eventId == null || eventId.isBlank()) {
            throw new InvalidEventException("eventId", "must be a non-empty string");
        }
        if (eventId.length() > MAX_EVENT_ID_LENGTH) {
            throw new InvalidEventException("eventId", "must be at most " + MAX_EVENT_ID_LENGTH + " characters");
        }
    }

    static void positive(String field, long id) {
        if (id <= 0) throw new InvalidEventException(field, "must be a positive 64-bit integer, was " + id);
    }

    static void present(String field, Object value) {
        if (value == null) throw new InvalidEventException(field, "is required");
    }
}
