package io.readmark.store.reconcile;

/**
 * The ways a user's records, z and counts can disagree (the invariants of counters.lua), as {@code check.lua} names
 * them. Each is a state no script leaves behind, so finding one means something outside the scripts wrote.
 */
public enum DriftKind {
    /** A field that is zero, negative or not an integer, or whose name is neither an author id nor a count's. */
    BAD_FIELD("bad-field"),
    /** An author's value is not whole 12-byte records newest first without repeats. */
    BAD_RECORDS("bad-records"),
    /** A record whose blog z does not hold as unread at the record's second (or that another record names too). */
    MISSING_ENTRY("missing-entry"),
    /** z holds an unread entry that no record names, so no list shows it and its author is unknown. */
    STRAY_ENTRY("stray-entry"),
    /** {@code total} (missing: 0) is not the number of records. */
    WRONG_TOTAL("wrong-total"),
    /**
     * {@code seen} (missing: 0) is not the number of records of a second at or before the seen watermark's (floors
     * field {@code seen}), so the unseen count the API derives from it is wrong.
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
    /** An author holds more records than {@code READMARK_MAX_UNREAD_PER_AUTHOR}, or the user (field total) more than {@code READMARK_MAX_UNREAD_PER_USER}. */
    OVER_CAP("over-cap"),
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
