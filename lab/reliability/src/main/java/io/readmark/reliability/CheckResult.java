package io.readmark.reliability;

import java.util.List;

/**
 * What {@link UnreadStateCheck} found, unread entries and notice inbox entries alike. {@code lost}: expected entries
 * Redis does not hold (or holds with another score); {@code extra}: entries Redis holds that are not expected; {@code doubleCounted}: count fields that
 * disagree with their set (a wrong set is lost or extra already), totals that are not the sum, zero or negative
 * fields, fields without a set, a {@code seen} count that is not the unread at or before the user's seen watermark
 * (the API's unseen would be wrong), a {@code notices} count that is not the unread of the notice inbox.
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
