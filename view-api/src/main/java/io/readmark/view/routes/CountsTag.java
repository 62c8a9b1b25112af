package io.readmark.view.routes;

import java.util.Optional;

/**
 * The entity tag of a counts answer, and whether a request's {@code If-None-Match} matches it (RFC 9110, 13.1.2).
 * The answer is a function of the user's state version, which every change of the user's own keys bumps, and of the
 * unread broadcast notices, counted when asked: the tag is both, so a broadcast published, withdrawn or expired changes
 * it too. It is weak: the same counts may be written with the authors in another order.
 */
final class CountsTag {

    /** Tags compared per request at most: past them the answer is a 200, always a correct answer to a conditional GET. */
    static final int MAX_TAGS = 64;

    private CountsTag() {
    }

    static String of(InboxCounts counts) {
        return "W/\"" + counts.blogs().version() + "-" + counts.broadcasts().count() + "\"";
    }

    /**
     * Whether {@code ifNoneMatch} (absent, {@code *}, or a comma-separated list of tags, weak or strong) names
     * {@code tag} by the weak comparison; a malformed member matches nothing.
     */
    static boolean matches(Optional<String> ifNoneMatch, String tag) {
        if (ifNoneMatch.isEmpty()) return false;
        String header = ifNoneMatch.get().strip();
        if (header.equals("*")) return true;
        String opaque = opaque(tag);
        int from = 0, seen = 0;
        while (from < header.length() && seen++ < MAX_TAGS) {
            int comma = header.indexOf(',', from);
            int end = comma < 0 ? header.length() : comma;
            if (opaque.equals(opaque(header.substring(from, end).strip()))) return true;
            from = end + 1;
        }
        return false;
    }

    /** The quoted part of a tag, without the weak prefix; null when it is not a tag. */
    private static String opaque(String tag) {
        String strong = tag.startsWith("W/") ? tag.substring(2) : tag;
        return strong.length() >= 2 && strong.startsWith("\"") && strong.endsWith("\"") ? strong : null;
    }
}
