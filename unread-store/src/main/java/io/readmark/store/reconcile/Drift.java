package io.readmark.store.reconcile;

/** One finding of {@code check.lua}: what is wrong with which field of which user, what it holds and what it should. */
public record Drift(long userId, DriftKind kind, String field, String found, String expected) {

    /** For a report: {@code user 42: wrong-total, total 3, records 2}. */
    public String describe() {
        String subject = switch (kind) {
            case WRONG_TOTAL -> "total " + found + ", records " + expected;
            case WRONG_NOTICES -> "notices " + found + ", unread entries of the notice inbox " + expected;
            case WRONG_NOTICE_FLOOR -> "notice floor in the audiences hash " + found + ", the floors' " + expected;
            case WRONG_SEEN -> "seen " + found + ", records at or before the seen watermark " + expected;
            case BAD_FIELD -> "field " + field + " = '" + found + "', expected " + expected;
            case BAD_RECORDS -> "author " + field + ": " + found + " bytes, expected " + expected;
            case MISSING_ENTRY -> "author " + field + ": blog " + found + " of second " + expected + " is not unread in z";
            case STRAY_ENTRY -> "blog " + found + " is unread in z, no record names it";
            case OVER_CAP -> (field.equals("total") ? "the user" : "author " + field) + " holds " + found + ", cap " + expected;
            case WRONG_TYPE -> "key " + field + " is a " + found + ", expected a " + expected;
        };
        return "user " + userId + ": " + kind.label() + ", " + subject;
    }
}
