package io.readmark.store.reconcile;

/**
 * The ways a user's counts or merged index can disagree with their unread sets (DESIGN invariants 1 and 2, and the
 * merged index being their union), as {@code check.lua} names them. Each is a state no script leaves behind, so finding one means something outside the scripts wrote.
 */
public enum DriftKind {
    /** {@code counts[A]} is a positive integer but not {@code ZCARD(unread:A)} (also: a count whose set is gone). */
    WRONG_COUNT("wrong-count"),
    /** {@code unread:A} has entries, the user's counts has no field A. */
    MISSING_COUNT("missing-count"),
    /** {@code unread:A} has entries, the user has no counts hash at all. */
    ORPHAN_SET("orphan-set"),
    /** A field that is zero, negative or not an integer, or whose name is neither an author id nor {@code total} or {@code seen}. */
    BAD_FIELD("bad-field"),
    /** {@code total} (missing: 0) is not the sum of the author fields. */
    WRONG_TOTAL("wrong-total"),
    /**
     * {@code seen} (missing: 0) is not the number of unread entries published at or before the user's seen watermark
     * (floors field {@code seen}), so the unseen count the API derives from it is wrong.
     */
    WRONG_SEEN("wrong-seen"),
    /**
     * {@code notices} (missing: 0) is not the number of unread entries of the user's targeted notice inbox: those above
     * both floors ({@code notices}, {@code all}) without a read mark.
     */
    WRONG_NOTICES("wrong-notices"),
    /**
     * The audiences hash's field {@code #floor} is not the larger of the floors {@code notices} and {@code all}
     * (missing while neither is set); a counts read takes the notice floor from it.
     */
    WRONG_NOTICE_FLOOR("wrong-notice-floor"),
    /** {@code unread:A} holds more entries than {@code READMARK_MAX_UNREAD_PER_AUTHOR}. */
    OVER_CAP("over-cap"),
    /**
     * The merged index is not the union of the unread sets: it holds another number of entries (field {@code merged}),
     * or entries of an author's set are missing from it or there at another time (field: the author). Every user of a
     * deployment from before the index has it until a repair builds the index.
     */
    WRONG_MERGED("wrong-merged"),
    /** A key of the user holds another Redis type than the data model's; reported, never repaired. */
    WRONG_TYPE("wrong-type");

    private final String label;

    DriftKind(String label) {
        this.label = label;
    }

    /** The name the scripts and the report use. */
    public String label() {
        return label;
    }

    static DriftKind ofLabel(String label) {
        for (DriftKind kind : values()) {
            if (kind.label.equals(label)) return kind;
        }
        throw new IllegalStateException("check.lua reported an unknown kind of drift: " + label);
    }
}
