package io.readmark.reliability;

import java.util.List;

/**
 * What {@link UnreadStateCheck} found, unread entries and notice inbox entries alike. {@code lost}: expected entries
 * Redis does not hold (or holds with another score); {@code extra}: entries Redis holds that are not expected; {@code doubleCounted}: h's records and z's
 * unread entries that disagree (a wrong record is lost or extra already), records out of order or repeated, a total
 * that is not their number, zero or negative counts, fields that are neither an author nor a count, a {@code seen}
 * count that is not the unread in or before the second of the user's seen watermark (the API's unseen would be
 * wrong), a {@code notices} count that is not the unread of the notice inbox.
 *
 * @param examples a few of the differences, for a failure message
 */
public record CheckResult(int usersChecked, long entriesExpected, long entriesFound, long lost, long extra,
                          long doubleCounted, List<String> examples) {

    public CheckResult {
        examples = List.copyOf(examples);
    }

    /** Nothing lost, nothing extra, every count right. */
    public boolean exact() {
        return lost == 0 && extra == 0 && doubleCounted == 0;
    }

    @Override
    public String toString() {
        return "users checked " + usersChecked + ", entries expected " + entriesExpected + ", found " + entriesFound
                + ", lost " + lost + ", extra " + extra + ", double-counted " + doubleCounted
                + (examples.isEmpty() ? "" : "\n  " + String.join("\n  ", examples));
    }
}
