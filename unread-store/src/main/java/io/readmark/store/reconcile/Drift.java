package io.readmark.store.reconcile;

/** One finding of {@code check.lua}: what is wrong with which field of which user, what it holds and what it should. */
public record Drift(long userId, DriftKind kind, String field, String found, String expected) {

    /** For a report: {@code user 42: wrong-count of author 7: counts 3, set holds 2}. */
    public String describe() {
        String subject = switch (kind) {
            case WRONG_TOTAL -> "total " + found + ", author fields sum to " + expected;
            case WRONG_NOTICES -> "notices " + found + ", unread entries of the notice inbox " + expected;
            case WRONG_NOTICE_FLOOR -> "notice floor in the audiences hash " + found + ", the floors' " + expected;
            case WRONG_SEEN -> "seen " + found + ", entries at or before the seen watermark " + expected;
            case WRONG_COUNT -> "author " + field + ": counts " + found + ", set holds " + expected;
            case MISSING_COUNT, ORPHAN_SET -> "author " + field + ": set holds " + found + ", no count";
            case BAD_FIELD -> "field " + field + " = '" + found + "', expected " + expected;
            case OVER_CAP -> "author " + field + ": set holds " + found + ", cap " + expected;
            case WRONG_MERGED -> field.equals("merged")
                    ? "merged index holds " + found + " entries, the unread sets " + expected
                    : "merged index: " + found + " entries of author " + field + " missing or at another time";
            case WRONG_TYPE -> "key " + field + " is a " + found + ", expected a " + expected;
        };
        return "user " + userId + ": " + kind.label() + ", " + subject;
    }
}
