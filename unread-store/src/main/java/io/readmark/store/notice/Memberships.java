package io.readmark.store.notice;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The audiences a user is a member of, and since when: {@link NoticeKeys#EVERYONE} since always, and those whose
 * {@code rm:{u:U}:audiences} field says {@code J<ms>} (audience_member.lua; {@code L<ms>} means left). At most
 * {@link #MAX_AUDIENCES} are considered, the latest joined among the fields read (a hash too big to read whole is
 * read in part: {@code BoundedHashRead}), so a read's work stays bounded whatever the hash holds.
 * Beside them the hash's field {@link NoticeKeys#NOTICE_FLOOR}: nothing published or sent at or before it is unread
 * (notices.lua).
 *
 * @param joinedAt the audiences joined, latest first, everyone's not included (every user is in it since always)
 */
record Memberships(Map<String, Long> joinedAt, long noticeFloor) {

    static final int MAX_AUDIENCES = 64;

    /** An empty audiences hash (the user never joined an audience, read a notice or marked all read): nothing to build. */
    private static final Memberships EVERYONE_ONLY = new Memberships(Map.of(), 0);

    private static final Comparator<Map.Entry<String, Long>> LATEST_JOINED_FIRST =
            Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey());

    static Memberships of(Map<String, String> hash) {
        if (hash.isEmpty()) return EVERYONE_ONLY;
        List<Map.Entry<String, Long>> fields = new ArrayList<>(hash.size());
        String floor = hash.get(NoticeKeys.NOTICE_FLOOR);
        for (Map.Entry<String, String> field : hash.entrySet()) {
            if (field.getValue().startsWith("J") && !field.getKey().equals(NoticeKeys.EVERYONE)) {
                fields.add(Map.entry(field.getKey(), Long.parseLong(field.getValue(), 1, field.getValue().length(), 10)));
            }
        }
        if (fields.size() > 1) fields.sort(LATEST_JOINED_FIRST);
        Map<String, Long> joined = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(fields.size(), MAX_AUDIENCES); i++) joined.put(fields.get(i).getKey(), fields.get(i).getValue());
        return new Memberships(joined, floor == null ? 0 : Long.parseLong(floor));
    }

    /** The audiences joined, everyone's not included. */
    Set<String> joined() {
        return Collections.unmodifiableSet(joinedAt.keySet());
    }

    /** Whether a notice of the audience published then is one the user receives. */
    boolean receives(LiveNotice notice) {
        // Not a member: no notice is published after never.
        long since = notice.audience().equals(NoticeKeys.EVERYONE) ? 0 : joinedAt.getOrDefault(notice.audience(), Long.MAX_VALUE);
        return notice.publishedAtMillis() > since;
    }
}
