package io.readmark.schemas;

/** An event that breaks the wire contract; {@link #field()} names the culprit ({@code null} when the whole payload is). */
public final class InvalidEventException extends RuntimeException {

    private final String field;
    private final String reason;

    public InvalidEventException(String field, String reason) {
        super(field == null ? reason : field + ": " + reason, null, false, false);
        this.field = field;
        this.reason = reason;
    }

    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
