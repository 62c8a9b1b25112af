package io.readmark.reliability;

import io.readmark.schemas.BlogsRead;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.notice.NoticeLimits;
import io.readmark.store.unread.EntryRecord;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The exact unread state a workload must end in, computed in plain Java by applying its events in production
 * order. That order gives the final state because the workload only produces what the pipeline resolves the same way
 * in any processing order (marks, floors and tombstones; see {@link Workload}), and duplicates change nothing.
 * Sorted maps, so that a seeded workload picking from them is repeatable.
 *
 * <p>Entries are compared with floors in whole seconds, as the scripts compare them (counters.lua): a read-all, an
 * all-read or a re-follow covers every post of its second, also one published after it in production order, which the
 * pipeline refuses whichever it processes first. So the model keeps those floors and applies them to later posts too.
 * Caps never bind ({@link Pipeline#NO_CAP}): which entries a binding cap trims depends on the processing order, so
 * the model refuses to go on past one rather than expect the wrong state. Tombstones are not modelled: their times
 * are those of the first read or delete processed, which depends on the order.
 */
public final class ExpectedUnread {

    /** A notice expired this long before a publish in its audience is gone after it, whatever the processor's clock lag. */
    private static final long EXPIRED_FOR_SURE_AFTER = 1_000;

    /** author → current followers. */
    private final Map<Long, NavigableSet<Long>> followers = new TreeMap<>();
    /** user → author → ms: nothing of the author published in that second or before is delivered (read-all, unfollow). */
    private final Map<Long, Map<Long, Long>> authorFloors = new TreeMap<>();
    /** user → ms: the same for every author (all-read). */
    private final Map<Long, Long> allFloors = new TreeMap<>();
    /**
     * user → author → ms of the follow after the pair's last unfollow: the pair's posts of that second or before are
     * refused (deliver.lua's membership field), so a post in the second of a re-follow never becomes unread.
     */
    private final Map<Long, Map<Long, Long>> refollowedAt = new TreeMap<>();
    /** user → authors the user unfollowed at some point: only then does a follow leave a floor. */
    private final Map<Long, Set<Long>> unfollowedOnce = new TreeMap<>();
    /** user → author → blog → publishedAt ms; no empty inner maps. */
    private final NavigableMap<Long, NavigableMap<Long, NavigableMap<Long, Long>>> unread = new TreeMap<>();
    private final Set<Long> deleted = new TreeSet<>();
    /** user → the latest moment they saw the inbox. */
    private final Map<Long, Long> seenAt = new TreeMap<>();
    /** user → targeted notice → sentAt ms: the notice inbox, read ones included. */
    private final NavigableMap<Long, NavigableMap<Long, Long>> inbox = new TreeMap<>();
    /** user → notices read (before or after they arrived). */
    private final Map<Long, Set<Long>> noticeReads = new TreeMap<>();
    /** user → the floor below which every notice is read: the latest of NoticesAllRead and AllRead. */
    private final Map<Long, Long> noticeFloor = new TreeMap<>();
    /** audience → live notice → publishedAt ms (published, not withdrawn, the newest of the cap). */
    private final NavigableMap<String, NavigableMap<Long, Long>> live = new TreeMap<>();
    /** notice → expiresAt ms, for the notices that expire. */
    private final Map<Long, Long> expiresAt = new TreeMap<>();
    /** user → audience → J<ms> or L<ms>, the latest membership change. */
    private final NavigableMap<Long, NavigableMap<String, String>> memberships = new TreeMap<>();

    /** Whether a floor covers a post: the same second or later, as the scripts compare them (counters.lua). */
    private static boolean covers(Long floorMillis, long publishedAt) {
        return floorMillis != null && EntryRecord.second(publishedAt) <= EntryRecord.second(floorMillis);
    }

    /** A first follow leaves nothing behind; a follow after an unfollow refuses the posts of its second and before. */
    void followed(long user, long author, long at) {
        followers.computeIfAbsent(author, a -> new TreeSet<>()).add(user);
        if (unfollowedOnce.getOrDefault(user, Set.of()).contains(author)) {
            refollowedAt.computeIfAbsent(user, u -> new TreeMap<>()).put(author, at);
        }
    }

    /** The user's unread of that author is dropped; a later follow gets only posts of later seconds. */
    void unfollowed(long user, long author, long at) {
        NavigableSet<Long> of = followers.get(author);
        if (of != null) of.remove(user);
        removeWhere(user, author, Map::clear);
        unfollowedOnce.computeIfAbsent(user, u -> new TreeSet<>()).add(author);
        authorFloors.computeIfAbsent(user, u -> new TreeMap<>()).merge(author, at, Math::max);
    }

    /** Unread for every current follower but the author, unless a floor of theirs covers its second. */
    void published(long author, long blog, long publishedAt) {
        if (deleted.contains(blog)) return;
        for (long user : followersOf(author)) {
            if (user == author || covers(authorFloors.getOrDefault(user, Map.of()).get(author), publishedAt)
                    || covers(allFloors.get(user), publishedAt)
                    || covers(refollowedAt.getOrDefault(user, Map.of()).get(author), publishedAt)) {
                continue;
            }
            NavigableMap<Long, NavigableMap<Long, Long>> byAuthor = unread.computeIfAbsent(user, u -> new TreeMap<>());
            byAuthor.computeIfAbsent(author, a -> new TreeMap<>()).put(blog, publishedAt);
            if (byAuthor.get(author).size() > Pipeline.NO_CAP || entriesOf(byAuthor) > Pipeline.NO_CAP) {
                throw new IllegalStateException("user " + user + " reached a cap: the expected state would depend on the processing order");
            }
        }
    }

    private static long entriesOf(NavigableMap<Long, NavigableMap<Long, Long>> byAuthor) {
        long entries = 0;
        for (NavigableMap<Long, Long> blogs : byAuthor.values()) entries += blogs.size();
        return entries;
    }

    void deleted(long author, long blog) {
        deleted.add(blog);
        for (long user : Set.copyOf(unread.keySet())) removeWhere(user, author, blogs -> blogs.remove(blog));
    }

    void read(long user, long author, long blog) {
        removeWhere(user, author, blogs -> blogs.remove(blog));
    }

    /** Exactly one {@link #read} per listed blog; one listed twice is read twice, which changes nothing. */
    void read(long user, List<BlogsRead.Blog> blogs) {
        blogs.forEach(blog -> read(user, blog.authorId(), blog.blogId()));
    }

    /** Everything of the author published in the second of {@code readAt} or before is read, later posts too. */
    void readAll(long user, long author, long readAt) {
        authorFloors.computeIfAbsent(user, u -> new TreeMap<>()).merge(author, readAt, Math::max);
        removeWhere(user, author, blogs -> blogs.values().removeIf(publishedAt -> covers(readAt, publishedAt)));
    }

    /**
     * Everything of every author published in the second of {@code readAt} or before is read, later posts too; and
     * every notice sent by then (notices compare ms).
     */
    void allRead(long user, long readAt) {
        noticesAllRead(user, readAt);
        allFloors.merge(user, readAt, Math::max);
        NavigableMap<Long, NavigableMap<Long, Long>> byAuthor = unread.get(user);
        if (byAuthor == null) return;
        for (long author : Set.copyOf(byAuthor.keySet())) {
            removeWhere(user, author, blogs -> blogs.values().removeIf(publishedAt -> covers(readAt, publishedAt)));
        }
    }

    void noticeSent(long user, long notice, long sentAt) {
        inbox.computeIfAbsent(user, u -> new TreeMap<>()).putIfAbsent(notice, sentAt);
    }

    /** Kept whether or not the notice arrived yet: it stays read. */
    void noticeRead(long user, long notice) {
        noticeReads.computeIfAbsent(user, u -> new TreeSet<>()).add(notice);
    }

    void noticesAllRead(long user, long readAt) {
        noticeFloor.merge(user, readAt, Math::max);
    }

    /**
     * A broadcast, stored once for the audience, expiring at {@code expiresAtMillis} unless 0; beyond the cap of live
     * notices the oldest goes (times are distinct).
     */
    void noticePublished(String audience, long notice, long publishedAt, long expiresAtMillis) {
        NavigableMap<Long, Long> notices = live.computeIfAbsent(audience, a -> new TreeMap<>());
        forgetExpired(audience, publishedAt);
        if (expiresAtMillis > 0) expiresAt.put(notice, expiresAtMillis);
        notices.put(notice, publishedAt);
        if (notices.size() > NoticeLimits.DEFAULTS.maxNoticesPerAudience()) {
            notices.entrySet().stream().min(Map.Entry.comparingByValue()).ifPresent(oldest -> notices.remove(oldest.getKey()));
        }
    }

    void noticeWithdrawn(String audience, long notice) {
        NavigableMap<Long, Long> notices = live.get(audience);
        if (notices != null) notices.remove(notice);
    }

    /** The workload's membership changes have increasing times: the last one is the one that counts. */
    void membership(long user, String audience, boolean joined, long at) {
        memberships.computeIfAbsent(user, u -> new TreeMap<>()).put(audience, (joined ? "J" : "L") + at);
    }

    /** How many live broadcast notices all audiences hold. */
    public long broadcastEntries() {
        return live.values().stream().mapToLong(Map::size).sum();
    }

    /** audience → notice live at {@code now} → publishedAt ms. */
    public NavigableMap<String, NavigableMap<Long, Long>> liveNotices(long now) {
        NavigableMap<String, NavigableMap<Long, Long>> liveNow = new TreeMap<>();
        live.forEach((audience, notices) -> {
            NavigableMap<Long, Long> unexpired = new TreeMap<>(notices);
            unexpired.keySet().removeIf(notice -> !liveAt(notice, now));
            liveNow.put(audience, unexpired);
        });
        return liveNow;
    }

    /** Whether a broadcast that was published is unexpired at {@code now}; one the model never saw counts as live. */
    public boolean liveAt(long notice, long now) {
        return expiresAt.getOrDefault(notice, Long.MAX_VALUE) > now;
    }

    /** How many broadcasts published with an expiry had expired at {@code now}. */
    public long noticesExpiredBy(long now) {
        return expiresAt.values().stream().filter(at -> at <= now).count();
    }

    /**
     * Forgets the audience's notices that expired a second or more before {@code at}, as the next publish script in the
     * audience drops them: its clock is the processor's wall clock, at or after the event's time in the workload (the
     * workload's clock runs ahead of the wall clock only in its set-up burst, which holds no notice). Only what the
     * audience may hold depends on it; what counts is compared at one instant ({@link #liveAt}).
     */
    void forgetExpired(String audience, long at) {
        NavigableMap<Long, Long> notices = live.get(audience);
        if (notices != null) notices.keySet().removeIf(held -> expiresAt.getOrDefault(held, Long.MAX_VALUE) <= at - EXPIRED_FOR_SURE_AFTER);
    }

    /** How many notices the audience may hold: its live ones and those expired too recently to be sure they are gone. */
    int noticesHeld(String audience) {
        NavigableMap<Long, Long> notices = live.get(audience);
        return notices == null ? 0 : notices.size();
    }

    /**
     * user → the audiences hash as the scripts keep it: audience → J<ms> or L<ms>, and {@link NoticeKeys#NOTICE_FLOOR}
     * → the user's notice floor, where they have one.
     */
    public NavigableMap<Long, NavigableMap<String, String>> audienceHashes() {
        NavigableMap<Long, NavigableMap<String, String>> hashes = new TreeMap<>();
        memberships.forEach((user, audiences) -> hashes.put(user, new TreeMap<>(audiences)));
        noticeFloor.forEach((user, floor) -> {
            if (floor > 0) hashes.computeIfAbsent(user, u -> new TreeMap<>()).put(NoticeKeys.NOTICE_FLOOR, Long.toString(floor));
        });
        return hashes;
    }

    /** The user's notice inbox, notice → sentAt ms; empty if none. */
    public NavigableMap<Long, Long> inboxOf(long user) {
        NavigableMap<Long, Long> of = inbox.get(user);
        return of == null ? Collections.emptyNavigableMap() : Collections.unmodifiableNavigableMap(of);
    }

    /** Every user with a targeted notice. */
    public Set<Long> noticeRecipients() {
        return Collections.unmodifiableSet(inbox.keySet());
    }

    /** The counts' {@code notices}: inbox entries sent after the user's notice floor and not read. */
    public long unreadNoticesOf(long user) {
        long floor = noticeFloor.getOrDefault(user, Long.MIN_VALUE);
        Set<Long> read = noticeReads.getOrDefault(user, Set.of());
        return inboxOf(user).entrySet().stream().filter(e -> e.getValue() > floor && !read.contains(e.getKey())).count();
    }

    /**
     * The broadcasts the user has unread at {@code now}: live notices of everyone's audience and of those the user
     * joined (the latest change a join), published after the join and after the notice floor, not read, not expired;
     * each id once.
     */
    public long unreadBroadcastsOf(long user, long now) {
        long floor = noticeFloor.getOrDefault(user, Long.MIN_VALUE);
        Set<Long> read = noticeReads.getOrDefault(user, Set.of());
        Map<String, Long> joined = new TreeMap<>();
        joined.put(NoticeKeys.EVERYONE, Long.MIN_VALUE);
        memberships.getOrDefault(user, new TreeMap<>()).forEach((audience, field) -> {
            if (field.startsWith("J")) joined.put(audience, Long.parseLong(field.substring(1)));
        });
        Set<Long> unread = new TreeSet<>();
        joined.forEach((audience, since) -> live.getOrDefault(audience, new TreeMap<>()).forEach((notice, publishedAt) -> {
            if (publishedAt > since && publishedAt > floor && !read.contains(notice) && liveAt(notice, now)) unread.add(notice);
        }));
        return unread.size();
    }

    /** The user's targeted notices that are unread now. */
    List<Long> unreadNoticeIdsOf(long user) {
        long floor = noticeFloor.getOrDefault(user, Long.MIN_VALUE);
        Set<Long> read = noticeReads.getOrDefault(user, Set.of());
        return inboxOf(user).entrySet().stream().filter(e -> e.getValue() > floor && !read.contains(e.getKey()))
                .map(Map.Entry::getKey).toList();
    }

    /** The seen watermark only moves forward. */
    void inboxSeen(long user, long at) {
        seenAt.merge(user, at, Math::max);
    }

    /** How many of the user's unread were published in the second of their seen watermark or before: h's {@code seen}. */
    public long seenOf(long user) {
        Long watermark = seenAt.get(user);
        if (watermark == null) return 0;
        return unreadOf(user).values().stream().flatMap(blogs -> blogs.values().stream())
                .filter(publishedAt -> covers(watermark, publishedAt)).count();
    }

    private void removeWhere(long user, long author, Consumer<NavigableMap<Long, Long>> change) {
        NavigableMap<Long, NavigableMap<Long, Long>> byAuthor = unread.get(user);
        if (byAuthor == null) return;
        NavigableMap<Long, Long> blogs = byAuthor.get(author);
        if (blogs == null) return;
        change.accept(blogs);
        if (blogs.isEmpty()) byAuthor.remove(author);
        if (byAuthor.isEmpty()) unread.remove(user);
    }

    boolean follows(long user, long author) {
        NavigableSet<Long> of = followers.get(author);
        return of != null && of.contains(user);
    }

    Set<Long> followersOf(long author) {
        NavigableSet<Long> of = followers.get(author);
        return of == null ? Set.of() : Collections.unmodifiableSet(of);
    }

    int followerCount(long author) {
        return followersOf(author).size();
    }

    /** Every user with something unread: user → author → blog → publishedAt ms. */
    public NavigableMap<Long, NavigableMap<Long, NavigableMap<Long, Long>>> unreadByUser() {
        return Collections.unmodifiableNavigableMap(unread);
    }

    /** The user's unread, author → blog → publishedAt ms; empty if none. */
    public NavigableMap<Long, NavigableMap<Long, Long>> unreadOf(long user) {
        NavigableMap<Long, NavigableMap<Long, Long>> byAuthor = unread.get(user);
        return byAuthor == null ? Collections.emptyNavigableMap() : Collections.unmodifiableNavigableMap(byAuthor);
    }

    /** How many (user, notice) entries the notice inboxes hold in all, read ones included. */
    public long noticeEntries() {
        return inbox.values().stream().mapToLong(Map::size).sum();
    }

    /** How many (user, author, blog) entries are unread in all. */
    public long entries() {
        return unread.values().stream().flatMap(byAuthor -> byAuthor.values().stream()).mapToLong(Map::size).sum();
    }
}
