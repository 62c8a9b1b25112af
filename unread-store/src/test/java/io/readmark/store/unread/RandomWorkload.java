package io.readmark.store.unread;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded random platform: authors publish, delete, gain and lose followers; users read single blogs (some
 * not delivered yet), read everything of an author or of every author, and see their inbox. Produces the two ordered streams a deployment has —
 * author-keyed changes (blog and follow events) and user-keyed changes (read events) — with exact duplicates
 * sprinkled in, as redelivery after a crash would produce them.
 */
final class RandomWorkload {

    static final long T0 = 1_767_225_600_000L;
    /** The clock notices are read at: 2100-01-01, after every writer's clock, so expiry is decided by the reads alone. */
    static final long READ_AT = 4_102_444_800_000L;
    static final int USERS = 8;
    static final int AUTHORS = 4;
    /**
     * The ids of authors 1..4: byte boundaries and ids past 2^53, where a double loses digits, so the merged index's
     * members (8 big-endian bytes per id) are exercised where a conversion through Lua numbers would break.
     */
    private static final long[] AUTHOR_IDS = {0, 255, 256, (1L << 53) + 1, Long.MAX_VALUE};

    /** The id of author {@code index} (1..AUTHORS). */
    static long authorId(int index) {
        return AUTHOR_IDS[index];
    }

    /** The id of the n-th blog: every third one past 2^62, so ids of different lengths share milliseconds. */
    static long blogId(long n) {
        return n % 3 == 0 ? (1L << 62) + n : n;
    }

    final List<UnreadOp> authorStream = new ArrayList<>();
    final List<UnreadOp> readerStream = new ArrayList<>();

    private final Random random;
    private final List<Set<Long>> followers = new ArrayList<>();
    private final List<long[]> published = new ArrayList<>(); // {blogId, authorId, publishedAt}
    /** Authors of blogs read before they are published: a read names the blog's real author. */
    private final Map<Long, Long> futureAuthors = new HashMap<>();
    private long nextBlog = 1;
    /** {user, authorId, unfollowedAt} of an unfollow whose re-follow is yet to be sent before it, or null. */
    private long[] overtakenUnfollow;
    /** Notice ids, broadcast and targeted alike. */
    private long nextNotice = 1;
    static final List<String> AUDIENCES = List.of("a.1", "a.2", "everyone");

    RandomWorkload(long seed, int events) {
        random = new Random(seed);
        for (int a = 0; a <= AUTHORS; a++) followers.add(new HashSet<>());
        for (long a = 1; a <= AUTHORS; a++) {
            for (long u = 1; u <= USERS; u++) if (random.nextBoolean()) followers.get((int) a).add(u);
        }
        for (int i = 0; i < events; i++) next();
    }

    /** Both streams in one order a single writer could see them: each stream's own order is kept. */
    List<UnreadOp> interleaved(long seed) {
        Random shuffle = new Random(seed);
        List<UnreadOp> merged = new ArrayList<>(authorStream.size() + readerStream.size());
        int a = 0;
        int r = 0;
        while (a < authorStream.size() || r < readerStream.size()) {
            boolean takeAuthor = r == readerStream.size() || (a < authorStream.size() && shuffle.nextBoolean());
            merged.add(takeAuthor ? authorStream.get(a++) : readerStream.get(r++));
        }
        return merged;
    }

    private void next() {
        int dice = random.nextInt(120);
        if (dice >= 100) {
            notice(dice - 100);
        } else if (dice < 8 && !authorStream.isEmpty()) {
            duplicate(authorStream);
        } else if (dice < 12 && !readerStream.isEmpty()) {
            duplicate(readerStream);
        } else if (dice < 40) {
            publish();
        } else if (dice < 45) {
            delete();
        } else if (dice < 52) {
            followOrUnfollow();
        } else if (dice < 84) {
            read();
        } else if (dice < 91) {
            readAll();
        } else if (dice < 94) {
            allRead();
        } else {
            inboxSeen();
        }
    }

    /**
     * Broadcasts, withdrawals (some before their publish) and memberships of an audience, and targeted sends, on the
     * notice events' stream; notice reads (some before the notice) and notices-all-reads on the readers'.
     */
    private void notice(int dice) {
        long at = T0 + (nextBlog / 2) * 1_000 + random.nextInt(1_000);
        String audience = AUDIENCES.get(random.nextInt(AUDIENCES.size()));
        long user = 1 + random.nextInt(USERS);
        if (dice < 4) {
            // A third expire around READ_AT: after the writers' clock (so the scripts keep them), some before the reads.
            long expiresAt = random.nextInt(3) == 0 ? READ_AT - 5_000 + random.nextInt(10_000) : 0;
            authorStream.add(new UnreadOp.NoticePublished(audience, nextNotice++, at, expiresAt));
        } else if (dice < 6) {
            authorStream.add(new UnreadOp.NoticeWithdrawn(audience, 1 + random.nextInt((int) nextNotice + 2), at));
        } else if (dice < 9) {
            authorStream.add(new UnreadOp.Membership(user, AUDIENCES.get(random.nextInt(2)), random.nextBoolean(), at));
        } else if (dice < 14) {
            long notice = nextNotice++;
            for (long recipient = 1; recipient <= USERS; recipient++) {
                if (random.nextBoolean()) authorStream.add(new UnreadOp.NoticeSent(recipient, notice, at));
            }
        } else if (dice < 18) {
            readerStream.add(new UnreadOp.NoticeRead(user, 1 + random.nextInt((int) nextNotice + 2), at));
        } else {
            readerStream.add(new UnreadOp.NoticesAllRead(user, randomMoment()));
        }
    }

    private void duplicate(List<UnreadOp> stream) {
        stream.add(stream.get(random.nextInt(stream.size())));
    }

    private void publish() {
        long blog = nextBlog++;
        Long planned = futureAuthors.remove(blog);
        long author = planned != null ? planned : 1 + random.nextInt(AUTHORS);
        // Pairs of blogs share a second, which orders entries, so ties are exercised; anywhere in it, so are floors
        // set within a second.
        long publishedAt = T0 + (blog / 2) * 1_000 + random.nextInt(1_000);
        published.add(new long[]{blog, author, publishedAt});
        if (random.nextBoolean()) {
            // As the big-V worker sends a burst: every follower in one call.
            authorStream.add(new UnreadOp.DeliverToEach(List.copyOf(followers.get((int) author)), authorId((int) author), blogId(blog), publishedAt));
            return;
        }
        for (long user : followers.get((int) author)) {
            authorStream.add(new UnreadOp.Deliver(user, authorId((int) author), blogId(blog), publishedAt));
        }
    }

    private void delete() {
        if (published.isEmpty()) return;
        long[] blog = published.get(random.nextInt(published.size()));
        long deletedAt = blog[2] + 500;
        if (random.nextBoolean()) {
            authorStream.add(new UnreadOp.DeleteForEach(List.copyOf(followers.get((int) blog[1])), authorId((int) blog[1]), blogId(blog[0]), deletedAt));
            return;
        }
        for (long user : followers.get((int) blog[1])) {
            authorStream.add(new UnreadOp.Remove(user, authorId((int) blog[1]), blogId(blog[0]), deletedAt));
        }
    }

    /**
     * A follow or an unfollow, or an unfollow whose re-follow overtakes it: the pair keeps getting posts until the
     * re-follow's time, and the next call sends the two as the processor then does ({@link UnreadOp.UnfollowBefore}).
     */
    private void followOrUnfollow() {
        long author = 1 + random.nextInt(AUTHORS);
        long user = 1 + random.nextInt(USERS);
        // On the clock of the posts: between the last post and the next.
        long at = T0 + (nextBlog / 2) * 1_000 + 250 + random.nextInt(500);
        if (overtakenUnfollow != null) {
            long followedAgainAt = Math.max(at, overtakenUnfollow[2] + 1);
            authorStream.add(new UnreadOp.UnfollowBefore(overtakenUnfollow[0], overtakenUnfollow[1], overtakenUnfollow[2], followedAgainAt));
            overtakenUnfollow = null;
            return;
        }
        if (followers.get((int) author).contains(user) && random.nextInt(3) == 0) {
            overtakenUnfollow = new long[]{user, authorId((int) author), at};
            return;
        }
        if (followers.get((int) author).remove(user)) {
            authorStream.add(new UnreadOp.Unfollow(user, authorId((int) author), at));
        } else {
            followers.get((int) author).add(user);
            authorStream.add(new UnreadOp.Follow(user, authorId((int) author), at));
        }
    }

    private void read() {
        long user = 1 + random.nextInt(USERS);
        // Sometimes a blog that is not published yet: its read arrives before its delivery.
        long blog = 1 + random.nextInt((int) nextBlog + 3);
        long author = blog < nextBlog ? published.get((int) blog - 1)[1]
                : futureAuthors.computeIfAbsent(blog, b -> 1L + random.nextInt(AUTHORS));
        readerStream.add(new UnreadOp.Remove(user, authorId((int) author), blogId(blog), T0 + nextBlog * 1_000 + random.nextInt(1_000)));
    }

    /** At a moment of the posts' clock, like a read-all: some posts older than it are still to be delivered. */
    private void allRead() {
        readerStream.add(new UnreadOp.AllRead(1 + random.nextInt(USERS), randomMoment()));
    }

    private void inboxSeen() {
        readerStream.add(new UnreadOp.InboxSeen(1 + random.nextInt(USERS), randomMoment()));
    }

    private long randomMoment() {
        return T0 + (long) (random.nextDouble() * (nextBlog / 2 + 2)) * 1_000 + random.nextInt(1_000);
    }

    private void readAll() {
        long user = 1 + random.nextInt(USERS);
        long author = 1 + random.nextInt(AUTHORS);
        long readAt = randomMoment();
        readerStream.add(new UnreadOp.ReadAll(user, authorId((int) author), readAt));
    }
}
