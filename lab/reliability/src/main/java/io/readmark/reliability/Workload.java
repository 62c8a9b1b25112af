package io.readmark.reliability;

import io.readmark.schemas.AllRead;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.BlogsRead;
import io.readmark.schemas.Followed;
import io.readmark.schemas.InboxSeen;
import io.readmark.schemas.NoticeWithdrawn;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.AudienceLeft;
import io.readmark.schemas.AudienceJoined;
import io.readmark.schemas.NoticesAllRead;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.Unfollowed;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeSet;
import java.util.Set;
import java.util.stream.LongStream;

/**
 * A seeded random mix of every event type, produced straight to Kafka and applied to an {@link ExpectedUnread} in
 * the same order. It produces only what the pipeline resolves to one exact state whatever the processing order,
 * crashes and replays in between: every event gets a strictly increasing time (its instant and its record
 * timestamp); follows, unfollows and posts, big-V ones included, go out without waiting for each other, as the
 * follower graph keeps each follow's time; a publish, read (of one post or several), read-all, delete or unfollow may
 * be sent again at any later point (an unfollow after the pair's re-follow, or after a later unfollow, changes
 * nothing), a follow only right after the original (replayed after an unfollow, a stale follow would be a new one).
 */
public final class Workload {

    /** Big-V authors' ids start above every user id: they publish and nothing else. */
    static final long FIRST_BIG_V_AUTHOR = 1_000_001;
    private static final int EVENTS_PER_ROUND = 10;
    private static final double FOLLOW_BATCH_CHANCE = 0.5;
    private static final double BIG_V_FOLLOW_CHANCE = 0.15;
    private static final double IMMEDIATE_DUPLICATE_CHANCE = 0.1;
    private static final int RESENDABLE = 2_000;
    private static final int MAX_NOTICE_RECIPIENTS = 5;
    /** A selection in an inbox: a few posts, far from the contract's 100. */
    private static final int MAX_BLOGS_READ_AT_ONCE = 6;
    /** Broadcast audiences: {@code everyone}, and three that users join and leave. */
    private static final List<String> AUDIENCES = List.of("everyone", "staff", "beta-testers", "flash");
    /** The audience whose notices expire, 2 to 20 s after they are published. */
    private static final String EXPIRING = "flash";
    /**
     * At most this many notices held in the expiring audience, far below its cap: a capped audience drops its oldest,
     * and which those are would depend on when the processor dropped the expired ones.
     */
    private static final int MAX_EXPIRING_HELD = 60;

    private enum Op {
        PUBLISH(14), PUBLISH_BIG_V(1), READ_UNREAD(40), READ_ANY(6), READ_SEVERAL(8), READ_ALL(9), ALL_READ(2), INBOX_SEEN(5), DELETE(6),
        DUPLICATE(12), NOTICE_SEND(4), NOTICE_READ(4), NOTICES_ALL_READ(1), NOTICE_PUBLISH(2), NOTICE_WITHDRAW(1),
        MEMBERSHIP(2);

        final int weight;

        Op(int weight) {
            this.weight = weight;
        }
    }

    private static final int TOTAL_WEIGHT = Arrays.stream(Op.values()).mapToInt(op -> op.weight).sum();

    private final WorkloadShape shape;
    private final Random random;
    private final EventProducer producer;
    private final ExpectedUnread model;
    private final String eventIdPrefix;
    private final LogicalClock clock = new LogicalClock();
    private final List<Long> normalAuthors;
    private final List<Long> bigVAuthors;
    private final List<Long> blogs = new ArrayList<>();
    private final List<Long> liveBlogs = new ArrayList<>();
    private final Map<Long, Long> authorOf = new HashMap<>();
    private final List<EventProducer.Sent> resendable = new ArrayList<>();
    private final List<Long> notices = new ArrayList<>();
    /** Broadcast notices published so far, with their audience (index 0) and id (index 1). */
    private final List<Object[]> broadcasts = new ArrayList<>();
    private long eventSequence;
    private long blogSequence;

    Workload(WorkloadShape shape, long seed, EventProducer producer, ExpectedUnread model, String eventIdPrefix) {
        this.shape = shape;
        this.random = new Random(seed);
        this.producer = producer;
        this.model = model;
        this.eventIdPrefix = eventIdPrefix;
        this.normalAuthors = LongStream.rangeClosed(1, shape.normalAuthors()).boxed().toList();
        this.bigVAuthors = LongStream.range(FIRST_BIG_V_AUTHOR, FIRST_BIG_V_AUTHOR + shape.bigVAuthors()).boxed().toList();
    }

    /** The follower graph to start from: a few normal authors per user, and every big-V author's followers. */
    void setUp() {
        for (long user = 1; user <= shape.users(); user++) {
            for (int i = 0; i < shape.followsPerUser(); i++) {
                long author = pick(normalAuthors);
                if (!model.follows(user, author) && mayFollow(author)) follow(user, author);
            }
        }
        List<Long> users = new ArrayList<>(LongStream.rangeClosed(1, shape.users()).boxed().toList());
        for (long author : bigVAuthors) {
            Collections.shuffle(users, random);
            users.subList(0, shape.bigVFollowers()).forEach(user -> follow(user, author));
        }
        producer.flush();
    }

    /** One round: sometimes a batch of follows and unfollows, then a mix of posts, reads, deletes and duplicates. */
    void round() {
        if (random.nextDouble() < FOLLOW_BATCH_CHANCE) followBatch(1 + random.nextInt(3));
        for (int i = 0; i < EVENTS_PER_ROUND; i++) apply(pickOp());
    }

    /** Records sent so far, duplicates included; safe to read from any thread. */
    long eventsProduced() {
        return producer.sent();
    }

    /** Waits until Kafka acknowledged everything sent. */
    void flush() {
        producer.flush();
    }

    private void followBatch(int size) {
        for (int i = 0; i < size; i++) {
            long user = randomUser();
            long author = !bigVAuthors.isEmpty() && random.nextDouble() < BIG_V_FOLLOW_CHANCE ? pick(bigVAuthors) : pick(normalAuthors);
            if (model.follows(user, author)) {
                unfollow(user, author);
            } else if (mayFollow(author)) {
                follow(user, author);
            }
        }
    }

    /** Normal authors stay below the big-V threshold, so their posts never take the chunked path. */
    private boolean mayFollow(long author) {
        return bigVAuthors.contains(author) || model.followerCount(author) < shape.maxFollowersPerNormalAuthor();
    }

    private Op pickOp() {
        int ticket = random.nextInt(TOTAL_WEIGHT);
        for (Op op : Op.values()) {
            ticket -= op.weight;
            if (ticket < 0) return op;
        }
        throw new AssertionError("weights");
    }

    private void apply(Op op) {
        switch (op) {
            case PUBLISH -> publish(pick(normalAuthors));
            case PUBLISH_BIG_V -> publish(bigVAuthors.isEmpty() ? pick(normalAuthors) : pick(bigVAuthors));
            case READ_UNREAD -> readUnread(randomUser());
            case READ_ANY -> {
                if (!blogs.isEmpty()) {
                    long blog = pick(blogs);
                    read(randomUser(), authorOf.get(blog), blog);
                }
            }
            case READ_SEVERAL -> readSeveral(randomUser());
            case READ_ALL -> readAll(randomUser());
            case ALL_READ -> allRead(randomUser());
            case INBOX_SEEN -> inboxSeen(randomUser());
            case DELETE -> {
                if (!liveBlogs.isEmpty()) delete(liveBlogs.remove(random.nextInt(liveBlogs.size())));
            }
            case DUPLICATE -> {
                if (!resendable.isEmpty()) producer.resend(pick(resendable));
            }
            case NOTICE_SEND -> sendNotice();
            case NOTICE_READ -> readNotice(randomUser());
            case NOTICES_ALL_READ -> noticesAllRead(randomUser());
            case NOTICE_PUBLISH -> publishNotice(pick(AUDIENCES));
            case NOTICE_WITHDRAW -> {
                if (!broadcasts.isEmpty()) withdrawNotice(broadcasts.get(random.nextInt(broadcasts.size())));
            }
            case MEMBERSHIP -> membership(randomUser(), pick(AUDIENCES.subList(1, AUDIENCES.size())), random.nextBoolean());
        }
    }

    private void follow(long user, long author) {
        long at = clock.next();
        EventProducer.Sent sent = producer.send(new Followed(nextEventId(), user, author, Instant.ofEpochMilli(at)), at);
        model.followed(user, author, at);
        if (random.nextDouble() < IMMEDIATE_DUPLICATE_CHANCE) producer.resend(sent);
    }

    private void unfollow(long user, long author) {
        long at = clock.next();
        EventProducer.Sent sent = producer.send(new Unfollowed(nextEventId(), user, author, Instant.ofEpochMilli(at)), at);
        model.unfollowed(user, author, at);
        if (random.nextDouble() < IMMEDIATE_DUPLICATE_CHANCE) producer.resend(sent);
        remember(sent);
    }

    private void publish(long author) {
        long blog = ++blogSequence;
        long at = clock.next();
        remember(producer.send(new BlogPublished(nextEventId(), blog, author, Instant.ofEpochMilli(at)), at));
        model.published(author, blog, at);
        blogs.add(blog);
        liveBlogs.add(blog);
        authorOf.put(blog, author);
    }

    private void readUnread(long user) {
        NavigableMap<Long, NavigableMap<Long, Long>> unread = model.unreadOf(user);
        if (unread.isEmpty()) return;
        long author = pick(List.copyOf(unread.keySet()));
        read(user, author, pick(List.copyOf(unread.get(author).keySet())));
    }

    private void read(long user, long author, long blog) {
        long at = clock.next();
        remember(producer.send(new BlogRead(nextEventId(), user, blog, author, Instant.ofEpochMilli(at)), at));
        model.read(user, author, blog);
    }

    /**
     * A {@code BlogsRead} of a few posts: mostly the user's unread, now and then any post (maybe not delivered yet, or
     * never to this user), now and then one listed twice.
     */
    private void readSeveral(long user) {
        NavigableMap<Long, NavigableMap<Long, Long>> unread = model.unreadOf(user);
        if (blogs.isEmpty()) return;
        List<BlogsRead.Blog> listed = new ArrayList<>();
        int count = 1 + random.nextInt(MAX_BLOGS_READ_AT_ONCE);
        for (int i = 0; i < count; i++) {
            long blog = unread.isEmpty() || random.nextInt(4) == 0 ? pick(blogs)
                    : pick(List.copyOf(pick(List.copyOf(unread.values())).keySet()));
            listed.add(new BlogsRead.Blog(blog, authorOf.get(blog)));
        }
        if (random.nextDouble() < IMMEDIATE_DUPLICATE_CHANCE) listed.add(pick(listed));
        long at = clock.next();
        remember(producer.send(new BlogsRead(nextEventId(), user, listed, Instant.ofEpochMilli(at)), at));
        model.read(user, listed);
    }

    /** Up to now, or (half the time, when there is unread) up to one of the unread posts: newer ones stay unread. */
    private void readAll(long user) {
        NavigableMap<Long, NavigableMap<Long, Long>> unread = model.unreadOf(user);
        long at = clock.next();
        long author;
        long readAt = at;
        if (unread.isEmpty()) {
            author = pick(normalAuthors);
        } else {
            author = pick(List.copyOf(unread.keySet()));
            if (random.nextBoolean()) readAt = pick(List.copyOf(unread.get(author).values()));
        }
        remember(producer.send(new AuthorReadAll(nextEventId(), user, author, Instant.ofEpochMilli(readAt)), at));
        model.readAll(user, author, readAt);
    }

    private void allRead(long user) {
        long at = clock.next();
        long readAt = upToNowOrAnUnreadPost(user, at);
        remember(producer.send(new AllRead(nextEventId(), user, Instant.ofEpochMilli(readAt)), at));
        model.allRead(user, readAt);
    }

    private void inboxSeen(long user) {
        long at = clock.next();
        long seenAt = upToNowOrAnUnreadPost(user, at);
        remember(producer.send(new InboxSeen(nextEventId(), user, Instant.ofEpochMilli(seenAt)), at));
        model.inboxSeen(user, seenAt);
    }

    /** {@code now}, or (half the time, when there is unread) when one of the user's unread posts was published. */
    private long upToNowOrAnUnreadPost(long user, long now) {
        NavigableMap<Long, NavigableMap<Long, Long>> unread = model.unreadOf(user);
        if (unread.isEmpty() || random.nextBoolean()) return now;
        return pick(List.copyOf(pick(List.copyOf(unread.values())).values()));
    }

    /** A targeted notice to a few users (write diffusion, inline), ids from the blogs' sequence so they never clash. */
    private void sendNotice() {
        long notice = ++blogSequence;
        long at = clock.next();
        Set<Long> recipients = new TreeSet<>();
        int count = 1 + random.nextInt(MAX_NOTICE_RECIPIENTS);
        while (recipients.size() < count) recipients.add(randomUser());
        remember(producer.send(new NoticeSent(nextEventId(), notice, List.copyOf(recipients), Instant.ofEpochMilli(at)), at));
        recipients.forEach(user -> model.noticeSent(user, notice, at));
        notices.add(notice);
    }

    /** A notice the user has unread, or (now and then) any notice, maybe one that never reaches them. */
    private void readNotice(long user) {
        List<Long> unread = model.unreadNoticeIdsOf(user);
        long notice;
        if (!unread.isEmpty() && random.nextInt(4) > 0) {
            notice = pick(unread);
        } else if (!notices.isEmpty()) {
            notice = pick(notices);
        } else {
            return;
        }
        long at = clock.next();
        remember(producer.send(new NoticeRead(nextEventId(), user, notice, Instant.ofEpochMilli(at)), at));
        model.noticeRead(user, notice);
    }

    /** A broadcast: one write for the whole audience (read diffusion); those of the expiring audience expire. */
    private void publishNotice(String audience) {
        boolean expiring = audience.equals(EXPIRING);
        long at = clock.next();
        if (expiring) {
            model.forgetExpired(EXPIRING, at);
            if (model.noticesHeld(EXPIRING) >= MAX_EXPIRING_HELD) return;
        }
        long notice = ++blogSequence;
        long expiresAt = expiring ? at + 2_000 + random.nextInt(18_000) : 0;
        remember(producer.send(new NoticePublished(nextEventId(), notice, audience, Instant.ofEpochMilli(at),
                expiring ? Instant.ofEpochMilli(expiresAt) : null), at));
        model.noticePublished(audience, notice, at, expiresAt);
        broadcasts.add(new Object[]{audience, notice});
    }

    private void withdrawNotice(Object[] broadcast) {
        String audience = (String) broadcast[0];
        long notice = (Long) broadcast[1];
        long at = clock.next();
        remember(producer.send(new NoticeWithdrawn(nextEventId(), notice, audience, Instant.ofEpochMilli(at)), at));
        model.noticeWithdrawn(audience, notice);
    }

    /** Joins and leaves are keyed by the audience, so one audience's stay in order. */
    private void membership(long user, String audience, boolean join) {
        long at = clock.next();
        Instant when = Instant.ofEpochMilli(at);
        remember(producer.send(join ? new AudienceJoined(nextEventId(), user, audience, when)
                : new AudienceLeft(nextEventId(), user, audience, when), at));
        model.membership(user, audience, join, at);
    }

    /** Up to now, or (half the time) up to when one of the user's notices was sent. */
    private void noticesAllRead(long user) {
        long at = clock.next();
        NavigableMap<Long, Long> inbox = model.inboxOf(user);
        long readAt = inbox.isEmpty() || random.nextBoolean() ? at : pick(List.copyOf(inbox.values()));
        remember(producer.send(new NoticesAllRead(nextEventId(), user, Instant.ofEpochMilli(readAt)), at));
        model.noticesAllRead(user, readAt);
    }

    private void delete(long blog) {
        long author = authorOf.get(blog);
        long at = clock.next();
        remember(producer.send(new BlogDeleted(nextEventId(), blog, author, Instant.ofEpochMilli(at)), at));
        model.deleted(author, blog);
    }

    /** Keeps the record for a later duplicate; once full, a random older one makes room. */
    private void remember(EventProducer.Sent sent) {
        if (resendable.size() < RESENDABLE) {
            resendable.add(sent);
        } else {
            resendable.set(random.nextInt(RESENDABLE), sent);
        }
    }

    private long randomUser() {
        return 1 + random.nextInt(shape.users());
    }

    private <T> T pick(List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    private String nextEventId() {
        return eventIdPrefix + "-" + ++eventSequence;
    }
}
