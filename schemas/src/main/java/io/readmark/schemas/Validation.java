package io.readmark.schemas;

import java.util.List;
import java.util.regex.Pattern;

/** The field rules of the wire contract, applied when an event record is built, whether from JSON or from code. */
final class Validation {

    static final int MAX_EVENT_ID_LENGTH = Event.MAX_EVENT_ID_LENGTH;
    static final Pattern AUDIENCE = Pattern.compile("^[a-z0-9][a-z0-9._:-]{0,63}$");

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

    /** A list of 1 to {@code max} items: what one event may make the pipeline do is bounded. */
    static void sized(String field, List<?> items, int max, String noun) {
        if (items == null || items.isEmpty()) throw new InvalidEventException(field, "must name at least one " + noun);
        if (items.size() > max) {
            throw new InvalidEventException(field, "must name at most " + max + " " + noun + "s, had " + items.size());
        }
    }

    static void audience(String audience) {
        if (audience == null || !AUDIENCE.matcher(audience).matches()) {
            throw new InvalidEventException("audience", "must match " + AUDIENCE.pattern() + ", was "
                    + (audience == null ? "null" : "'" + abbreviated(audience) + "'"));
        }
    }

    /** Members of {@link NoticeEvent#EVERYONE} are every user: nobody joins or leaves it. */
    static void joinable(String audience) {
        audience(audience);
        if (NoticeEvent.EVERYONE.equals(audience)) {
            throw new InvalidEventException("audience", "every user is a member of '" + NoticeEvent.EVERYONE + "'; nobody joins or leaves it");
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    static void present(String field, Object value) {
        if (value == null) throw new InvalidEventException(field, "is required");
    }
}
