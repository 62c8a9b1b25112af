package io.readmark.store.unread;

import io.readmark.store.notice.NoticeItem;
import io.readmark.store.notice.NoticeKeys;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The unread semantics in plain Java, with nothing from Redis: what every user's unread entries, counts, tombstones,
 * floors and follow memberships must be after a sequence of changes. The model-based test holds the Lua scripts to it.
 * Entries keep the second they were published in; every floor (kept in ms) covers the entries of its second and
 * before, whichever came first.
 */
final class UnreadModel {

    /** A sorted-set entry, ordered as Redis orders them: by score, then by member bytes. */
    record Entry(long score, String member) {
        static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::score).thenComparing(Entry::member);
        /** An author's entries (score: the second) oldest first, as the records are kept newest first: by second, then blogId descending. */
        static final Comparator<Entry> AUTHOR_ORDER = Comparator.comparingLong(Entry::score)
                .thenComparing(entry -> Long.parseLong(entry.member()), Comparator.reverseOrder());
    }

    /** The second of a moment in ms, as entries and floors are compared (counters.lua's second_of). */
    static long second(long millis) {
        return Math.min(4_294_967_294L, Math.max(0, Math.floorDiv(millis, 1000)));
    }

    private static boolean covers(Long floorMillis, long second) {
        return floorMillis != null && second <= second(floorMillis);
    }

    private final UnreadLimits limits;
    private final Map<Long, Map<Long, NavigableSet<Entry>>> unread = new HashMap<>();
    private final Map<Long, NavigableSet<Entry>> marks = new HashMap<>();
    private final Map<Long, Map<Long, Long>> floors = new HashMap<>();
    /** The user's floor for every author (all-read), the per-user cap's, and seen watermark (inbox seen). */
    private final Map<Long, Long> allFloors = new HashMap<>();
    private final Map<Long, Long> trimFloors = new HashMap<>();
    private final Map<Long, Long> watermarks = new HashMap<>();
    /** Notices: each user's targeted inbox, notice read marks and notices floor; each audience's live and withdrawn. */
    private final Map<Long, NavigableSet<Entry>> inboxes = new HashMap<>();
    private final Map<Long, NavigableSet<Entry>> noticeReads = new HashMap<>();
    private final Map<Long, Long> noticeFloors = new HashMap<>();
    private final Map<String, NavigableSet<Entry>> audienceNotices = new HashMap<>();
    private final Map<String, NavigableSet<Entry>> withdrawn = new HashMap<>();
    /** audience → notice → expiresAt, for live notices that expire. */
    private final Map<String, Map<String, Long>> expiries = new HashMap<>();
    /** audience → J<ms> or L<ms>, per user. */
    private final Map<Long, Map<String, String>> audiences = new HashMap<>();
    /** The last unfollow or re-follow of each (user, author) pair. */
    private final Map<Long, Map<Long, Membership>> memberships = new HashMap<>();

    /** An unfollow ({@code following} false) or a follow after one, and when. */
    record Membership(boolean following, long at) {
        String field() {
            return (following ? "F" : "U") + at;
        }
    }

    UnreadModel(UnreadLimits limits) {
        this.limits = limits;
    }

    void deliver(long user, long author, long blog, long publishedAt) {
        String member = Long.toString(blog);
        long second = second(publishedAt);
        if (markOf(user, member) != null) return;
        if (covers(floors(user).get(author), second) || covers(allFloors.get(user), second) || covers(trimFloors.get(user), second)) return;
        Membership membership = memberships(user).get(author);
        if (membership != null && (!membership.following() || covers(membership.at(), second))) return;
        if (unread.getOrDefault(user, Map.of()).values().stream().anyMatch(set -> contains(set, member))) return;
        NavigableSet<Entry> set = unread(user, author);
        set.add(new Entry(second, member));
        if (set.size() > limits.maxUnreadPerAuthor()) {
            long newestTrimmed = 0;
            while (set.size() > limits.maxUnreadPerAuthor()) newestTrimmed = set.pollFirst().score();
            floors(user).merge(author, newestTrimmed * 1000 + 999, Math::max);
        }
        List<UnreadItem> all = mergedOf(user);
        if (all.size() > limits.maxUnreadPerUser()) {
            long newestTrimmed = 0;
            for (UnreadItem oldest : all.subList(limits.maxUnreadPerUser(), all.size())) {
                unread(user, oldest.authorId()).removeIf(e -> e.member().equals(Long.toString(oldest.blogId())));
                newestTrimmed = Math.max(newestTrimmed, oldest.publishedAt().getEpochSecond());
            }
            trimFloors.merge(user, newestTrimmed * 1000 + 999, Math::max);
        }
    }

    /** A read or delete: the entry, if unread by that author, becomes a tombstone; a blog unread by another author is left alone. */
    void remove(long user, long author, long blog, long at) {
        String member = Long.toString(blog);
        if (markOf(user, member) != null) return;
        for (Map.Entry<Long, NavigableSet<Entry>> byAuthor : unread.getOrDefault(user, Map.of()).entrySet()) {
            if (byAuthor.getKey() != author && contains(byAuthor.getValue(), member)) return;
        }
        unread(user, author).removeIf(e -> e.member().equals(member));
        NavigableSet<Entry> userMarks = marks.computeIfAbsent(user, u -> new TreeSet<>(Entry.ORDER));
        userMarks.add(new Entry(second(at) + 1, member));
        while (userMarks.size() > limits.maxMarksPerUser()) userMarks.pollFirst();
    }

    void readAll(long user, long author, long readAt) {
        unread(user, author).removeIf(e -> e.score() <= second(readAt));
        floors(user).merge(author, readAt, Math::max);
    }

    void allRead(long user, long readAt) {
        unread.getOrDefault(user, Map.of()).values().forEach(set -> set.removeIf(e -> e.score() <= second(readAt)));
        allFloors.merge(user, readAt, Math::max);
    }

    void inboxSeen(long user, long seenAt) {
        watermarks.merge(user, seenAt, Math::max);
    }

    void unfollow(long user, long author, long at) {
        Membership last = memberships(user).get(author);
        if (last != null && (last.at() > at || last.at() == at && !last.following())) return;
        memberships(user).put(author, new Membership(false, at));
        unread(user, author).clear();
        floors(user).merge(author, at, Math::max);
    }

    /**
     * An unfollow and the re-follow after it, the re-follow processed first: what was published after the re-follow
     * stays, the rest goes; the membership records the re-follow unless the pair's last change is it or newer, or
     * moves a later re-follow after the same unfollow back to it.
     */
    void unfollowBefore(long user, long author, long unfollowedAt, long followedAgainAt) {
        Membership last = memberships(user).get(author);
        Long floor = floors(user).get(author);
        boolean movesBack = last != null && last.following() && followedAgainAt < last.at() && followedAgainAt > unfollowedAt
                && (floor == null || followedAgainAt > floor);
        if (last == null || last.at() < followedAgainAt || movesBack) {
            memberships(user).put(author, new Membership(true, followedAgainAt));
        }
        unread(user, author).removeIf(e -> e.score() <= second(followedAgainAt));
        floors(user).merge(author, unfollowedAt, Math::max);
    }

    /** Only a follow after the pair's last unfollow or re-follow changes anything. */
    void follow(long user, long author, long at) {
        Membership last = memberships(user).get(author);
        if (last != null && last.at() < at) memberships(user).put(author, new Membership(true, at));
    }

    void noticePublished(String audience, long notice, long publishedAt, long expiresAt) {
        String member = Long.toString(notice);
        if (contains(withdrawn.get(audience), member)) return;
        NavigableSet<Entry> live = audienceNotices.computeIfAbsent(audience, a -> new TreeSet<>(Entry.ORDER));
        if (contains(live, member)) return;
        live.add(new Entry(publishedAt, member));
        if (expiresAt > 0) expiries.computeIfAbsent(audience, a -> new HashMap<>()).put(member, expiresAt);
        while (live.size() > limits.notices().maxNoticesPerAudience()) live.pollFirst();
    }

    void noticeWithdrawn(String audience, long notice, long at) {
        String member = Long.toString(notice);
        NavigableSet<Entry> tombstones = withdrawn.computeIfAbsent(audience, a -> new TreeSet<>(Entry.ORDER));
        if (!contains(tombstones, member)) tombstones.add(new Entry(at, member));
        while (tombstones.size() > limits.notices().maxWithdrawn()) tombstones.pollFirst();
        NavigableSet<Entry> live = audienceNotices.get(audience);
        if (live != null) live.removeIf(e -> e.member().equals(member));
    }

    /** The later time wins; a leave wins a tie. */
    void membership(long user, String audience, boolean joined, long at) {
        Map<String, String> of = audiences.computeIfAbsent(user, u -> new TreeMap<>());
        String current = of.get(audience);
        if (current != null) {
            long currentAt = Long.parseLong(current.substring(1));
            if (at < currentAt || at == currentAt && (joined || current.startsWith("L"))) return;
        }
        of.put(audience, (joined ? "J" : "L") + at);
    }

    void noticeSent(long user, long notice, long sentAt) {
        String member = Long.toString(notice);
        NavigableSet<Entry> inbox = inboxes.computeIfAbsent(user, u -> new TreeSet<>(Entry.ORDER));
        if (contains(inbox, member)) return;
        inbox.add(new Entry(sentAt, member));
        while (inbox.size() > limits.notices().maxTargetedNotices()) inbox.pollFirst();
    }

    void noticeRead(long user, long notice, long readAt) {
        String member = Long.toString(notice);
        NavigableSet<Entry> reads = noticeReads.computeIfAbsent(user, u -> new TreeSet<>(Entry.ORDER));
        if (contains(reads, member)) return;
        reads.add(new Entry(readAt, member));
        while (reads.size() > limits.notices().maxNoticeReads()) reads.pollFirst();
    }

    void noticesAllRead(long user, long readAt) {
        noticeFloors.merge(user, readAt, Math::max);
    }

    /** Targeted notices unread: in the inbox, after both floors, without a read mark. */
    long unreadNotices(long user) {
        long floor = Math.max(noticeFloors.getOrDefault(user, 0L), allFloors.getOrDefault(user, 0L));
        NavigableSet<Entry> reads = noticeReads.getOrDefault(user, new TreeSet<>(Entry.ORDER));
        return inboxes.getOrDefault(user, new TreeSet<>(Entry.ORDER)).stream()
                .filter(e -> e.score() > floor && !contains(reads, e.member())).count();
    }

    /**
     * Broadcasts unread at {@code now}: live notices of everyone's audience and of those the user joined (and did not
     * leave since), published after the join and after both floors, not expired, without a read mark; each id once.
     */
    long unreadBroadcasts(long user, long now) {
        return receivedBroadcasts(user, now).stream().filter(item -> !item.read()).count();
    }

    /** The notice inbox at {@code now}, newest first: targeted entries and received broadcasts, with read flags. */
    List<NoticeItem> noticeInbox(long user, long now) {
        long floor = noticeFloor(user);
        NavigableSet<Entry> reads = noticeReadsOf(user);
        List<NoticeItem> all = new ArrayList<>(receivedBroadcasts(user, now));
        for (Entry entry : inboxOf(user)) {
            all.add(new NoticeItem(Long.parseLong(entry.member()), null, entry.score(), 0,
                    entry.score() <= floor || contains(reads, entry.member())));
        }
        all.sort(NoticeItem.NEWEST_FIRST);
        return all;
    }

    private List<NoticeItem> receivedBroadcasts(long user, long now) {
        long floor = noticeFloor(user);
        NavigableSet<Entry> reads = noticeReadsOf(user);
        Map<String, Long> joined = new TreeMap<>();
        joined.put("everyone", 0L);
        audiencesOf(user).forEach((audience, field) -> {
            if (field.startsWith("J")) joined.put(audience, Long.parseLong(field.substring(1)));
        });
        List<NoticeItem> received = new ArrayList<>();
        joined.forEach((audience, since) -> {
            for (Entry entry : audienceNoticesOf(audience)) {
                long expiresAt = expiries.getOrDefault(audience, Map.of()).getOrDefault(entry.member(), 0L);
                if (entry.score() <= since || (expiresAt != 0 && expiresAt <= now)) continue;
                received.add(new NoticeItem(Long.parseLong(entry.member()), audience, entry.score(), expiresAt,
                        entry.score() <= floor || contains(reads, entry.member())));
            }
        });
        return received;
    }

    private long noticeFloor(long user) {
        return Math.max(noticeFloors.getOrDefault(user, 0L), allFloors.getOrDefault(user, 0L));
    }

    NavigableSet<Entry> inboxOf(long user) {
        return inboxes.getOrDefault(user, new TreeSet<>(Entry.ORDER));
    }

    NavigableSet<Entry> noticeReadsOf(long user) {
        return noticeReads.getOrDefault(user, new TreeSet<>(Entry.ORDER));
    }

    /** The audiences hash: audience → J<ms> or L<ms>, and the notice floor, where the user has one. */
    Map<String, String> audiencesOf(long user) {
        Map<String, String> hash = new HashMap<>(audiences.getOrDefault(user, Map.of()));
        long floor = noticeFloor(user);
        if (floor > 0) hash.put(NoticeKeys.NOTICE_FLOOR, Long.toString(floor));
        return hash;
    }

    NavigableSet<Entry> audienceNoticesOf(String audience) {
        return audienceNotices.getOrDefault(audience, new TreeSet<>(Entry.ORDER));
    }

    NavigableSet<Entry> withdrawnOf(String audience) {
        return withdrawn.getOrDefault(audience, new TreeSet<>(Entry.ORDER));
    }

    private static boolean contains(NavigableSet<Entry> set, String member) {
        return set != null && set.stream().anyMatch(e -> e.member().equals(member));
    }

    /**
     * Expected counts hash: one field per author with unread, plus {@code total} when non-zero and {@code seen} (unread
     * published at or before the seen watermark) when non-zero.
     */
    Map<String, String> counts(long user) {
        Map<String, String> counts = new TreeMap<>();
        long total = 0;
        long seen = 0;
        Long watermark = watermarks.get(user);
        for (Map.Entry<Long, NavigableSet<Entry>> byAuthor : unread.getOrDefault(user, Map.of()).entrySet()) {
            if (byAuthor.getValue().isEmpty()) continue;
            counts.put(Long.toString(byAuthor.getKey()), Integer.toString(byAuthor.getValue().size()));
            total += byAuthor.getValue().size();
            if (watermark != null) seen += byAuthor.getValue().stream().filter(e -> covers(watermark, e.score())).count();
        }
        if (total > 0) counts.put("total", Long.toString(total));
        if (seen > 0) counts.put("seen", Long.toString(seen));
        long notices = unreadNotices(user);
        if (notices > 0) counts.put("notices", Long.toString(notices));
        return counts;
    }

    NavigableSet<Entry> unreadOf(long user, long author) {
        return unread(user, author);
    }

    /** The author's page order: newest second first, then blogId ascending. */
    List<UnreadItem> authorListOf(long user, long author) {
        List<UnreadItem> items = new ArrayList<>();
        unread(user, author).descendingSet().forEach(entry ->
                items.add(new UnreadItem(Long.parseLong(entry.member()), author, Instant.ofEpochSecond(entry.score()))));
        return items;
    }

    /** z: each unread entry scored minus its second, each tombstone its second plus one, in Redis order. */
    List<Entry> zOf(long user) {
        List<Entry> z = new ArrayList<>();
        unread.getOrDefault(user, Map.of()).values().forEach(set -> set.forEach(entry -> z.add(new Entry(-entry.score(), entry.member()))));
        z.addAll(marksOf(user));
        z.sort(Entry.ORDER);
        return z;
    }

    /** Every unread blog of the user across authors, in the merged list's order ({@link UnreadItem#NEWEST_FIRST}). */
    List<UnreadItem> mergedOf(long user) {
        List<UnreadItem> all = new ArrayList<>();
        unread.getOrDefault(user, Map.of()).forEach((author, entries) -> entries.forEach(entry ->
                all.add(new UnreadItem(Long.parseLong(entry.member()), author, Instant.ofEpochSecond(entry.score())))));
        all.sort(UnreadItem.NEWEST_FIRST);
        return all;
    }

    NavigableSet<Entry> marksOf(long user) {
        return marks.getOrDefault(user, new TreeSet<>(Entry.ORDER));
    }

    /**
     * The floors hash: author → floor, {@code m<author>} → the pair's last unfollow or re-follow, {@code all} → the
     * floor for every author, {@code seen} → the seen watermark, {@code notices} → the notices floor.
     */
    Map<String, String> floorsOf(long user) {
        Map<String, String> hash = new TreeMap<>();
        if (allFloors.containsKey(user)) hash.put("all", Long.toString(allFloors.get(user)));
        if (watermarks.containsKey(user)) hash.put("seen", Long.toString(watermarks.get(user)));
        if (trimFloors.containsKey(user)) hash.put("trim", Long.toString(trimFloors.get(user)));
        if (noticeFloors.containsKey(user)) hash.put("notices", Long.toString(noticeFloors.get(user)));
        floors(user).forEach((author, floor) -> hash.put(Long.toString(author), Long.toString(floor)));
        memberships(user).forEach((author, membership) -> hash.put("m" + author, membership.field()));
        return hash;
    }

    private Long markOf(long user, String member) {
        return marks.getOrDefault(user, new TreeSet<>(Entry.ORDER)).stream()
                .filter(e -> e.member().equals(member)).map(Entry::score).findFirst().orElse(null);
    }

    private NavigableSet<Entry> unread(long user, long author) {
        return unread.computeIfAbsent(user, u -> new HashMap<>()).computeIfAbsent(author, a -> new TreeSet<>(Entry.AUTHOR_ORDER));
    }

    private Map<Long, Membership> memberships(long user) {
        return memberships.computeIfAbsent(user, u -> new HashMap<>());
    }

    private Map<Long, Long> floors(long user) {
        return floors.computeIfAbsent(user, u -> new HashMap<>());
    }
}
