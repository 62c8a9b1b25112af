package io.readmark.store.notice;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.BoundedHashRead;
import io.readmark.store.unread.InvalidCursorException;
import io.readmark.store.unread.PageCursor;
import io.readmark.store.unread.UnreadKeys;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.DoubleListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Reads a user's notices; never writes. Broadcasts are read diffusion: an audience's live notices are read once
 * ({@link LiveNoticeSource}) and the user's own state is only memberships, read marks and floors, so what a user has
 * unread is computed here, when asked. Each command touches one slot: the user's, or one audience's.
 *
 * <p>Worst case per request: one bounded read of the user's membership hash ({@link BoundedHashRead}, whatever the
 * hash holds), at most {@value Memberships#MAX_AUDIENCES} audiences of at
 * most the per-audience cap of notices each (from the source), and one {@code ZMSCORE} of those ids; a page adds at
 * most the inbox cap of targeted entries.
 */
public final class NoticeReader {

    private final RedisConnections.Connection connection;
    private final NoticeKeys keys;
    private final LiveNoticeSource source;
    private final MembershipHints hints;
    private final LongSupplier clock;
    private final int hashReadFields;

    public NoticeReader(RedisConnections.Connection connection, UnreadKeys unreadKeys, LiveNoticeSource source, LongSupplier clock) {
        this(connection, unreadKeys, source, MembershipHints.NONE, clock);
    }

    public NoticeReader(RedisConnections.Connection connection, UnreadKeys unreadKeys, LiveNoticeSource source,
                        MembershipHints hints, LongSupplier clock) {
        this(connection, unreadKeys, source, hints, clock, BoundedHashRead.FIELDS);
    }

    /** @param hashReadFields the fields of one {@code HSCAN} of the audiences hash: a hash up to about this many is read whole */
    public NoticeReader(RedisConnections.Connection connection, UnreadKeys unreadKeys, LiveNoticeSource source,
                        MembershipHints hints, LongSupplier clock, int hashReadFields) {
        this.connection = connection;
        this.keys = new NoticeKeys(unreadKeys.prefix());
        this.source = source;
        this.hints = hints;
        this.clock = clock;
        this.hashReadFields = hashReadFields;
    }

    /**
     * The user's unread broadcasts: live notices of their audiences published after they joined and after both floors
     * ({@code NoticesAllRead}, {@code AllRead}), without a read mark, each id once. The read marks of everyone's
     * notices and of the audiences the user was last seen in go out in the same flush as the user's memberships, so
     * one round trip suffices unless the user joined an audience with live notices since. Marks already known for
     * exactly those ids are not asked for again while the memberships hash holds the same stamp: the usual badge
     * read then costs Redis what one without notices costs.
     */
    public CompletionStage<BroadcastUnread> broadcastUnreadAsync(long userId) {
        CompletionStage<BoundedHashRead.Hash> membershipRead = membershipsAsync(userId);
        CompletionStage<Map<String, String>> membershipHash = membershipRead.thenApply(BoundedHashRead.Hash::fields);
        Set<String> guessed = hints.audiences(userId);
        KnownReads known = hints.reads(userId);
        CompletionStage<List<LiveNotice>> early = liveNoticesOf(NoticeKeys.EVERYONE, guessed);
        CompletionStage<NoticeIds> earlyIds = early.thenApply(NoticeIds::of);
        CompletionStage<NoticeIds> earlyRead = earlyIds.thenCompose(ids -> readMarksAsync(userId, ids, known, membershipHash));
        return membershipRead.thenCompose(found -> {
            Map<String, String> hash = found.fields();
            Memberships memberships = Memberships.of(hash);
            String stamp = hash.getOrDefault(NoticeKeys.READS_STAMP, "");
            Set<String> joined = memberships.joined();
            if (!found.whole()) {
                // The stamp came in a later call than the early marks: ask for all marks after it.
                return sampledBroadcastUnread(userId, memberships, joined, known, stamp, hash);
            }
            if (guessed.containsAll(joined)) {
                return early.thenCombine(earlyIds.thenCombine(earlyRead, (asked, read) -> {
                    remember(userId, joined, known, stamp, asked, read);
                    return read;
                }), (notices, read) -> count(memberships, notices, read, clock.getAsLong()));
            }
            Set<String> unguessed = new LinkedHashSet<>(joined);
            unguessed.removeAll(guessed);
            CompletionStage<List<LiveNotice>> late = liveNoticesOf(null, unguessed);
            CompletionStage<NoticeIds> lateIds = late.thenCombine(earlyIds, (more, first) -> NoticeIds.of(more).without(first));
            CompletionStage<NoticeIds> lateRead = lateIds.thenCompose(ids -> readMarksAsync(userId, ids));
            CompletionStage<NoticeIds> read = earlyIds.thenCombine(lateIds, NoticeIds::union)
                    .thenCombine(earlyRead.thenCombine(lateRead, NoticeIds::union), (asked, marks) -> {
                        remember(userId, joined, known, stamp, asked, marks);
                        return marks;
                    });
            return early.thenCombine(late, NoticeReader::concat)
                    .thenCombine(read, (notices, marks) -> count(memberships, notices, marks, clock.getAsLong()));
        });
    }

    /** A memberships hash too big to read whole: every notice and mark read after the sample that brought the stamp. */
    private CompletionStage<BroadcastUnread> sampledBroadcastUnread(long userId, Memberships memberships, Set<String> joined,
                                                                   KnownReads known, String stamp, Map<String, String> hash) {
        CompletionStage<List<LiveNotice>> notices = liveNoticesOf(NoticeKeys.EVERYONE, joined);
        CompletionStage<NoticeIds> ids = notices.thenApply(NoticeIds::of);
        CompletionStage<NoticeIds> marks = ids.thenCompose(asked -> readMarksAsync(userId, asked, known, CompletableFuture.completedFuture(hash))
                .thenApply(read -> {
                    remember(userId, joined, known, stamp, asked, read);
                    return read;
                }));
        return notices.thenCombine(marks, (live, read) -> count(memberships, live, read, clock.getAsLong()));
    }

    /**
     * The user's audiences hash, whole when it is small; past about {@code hashReadFields} fields the memberships of
     * one bounded scan, with {@code #floor} and {@code #reads} exact.
     */
    private CompletionStage<BoundedHashRead.Hash> membershipsAsync(long userId) {
        return BoundedHashRead.readAsync(connection, keys.audiences(userId), hashReadFields, NoticeKeys.NOTICE_FLOOR, NoticeKeys.READS_STAMP);
    }

    /**
     * The marks among {@code ids}: the known ones when they answer exactly these ids under the stamp the memberships
     * hash holds (then Redis is not asked), else from Redis, in the same flush as the hash when nothing is known.
     * Redis runs the ZMSCORE after the HSCAN (one connection, one slot): marks are never older than the stamp kept
     * with them, so a stamp can only make a later read ask again, never keep an old answer.
     */
    private CompletionStage<NoticeIds> readMarksAsync(long userId, NoticeIds ids, KnownReads known,
                                                     CompletionStage<Map<String, String>> membershipHash) {
        if (ids.isEmpty() || known == null || !known.asks(ids)) return readMarksAsync(userId, ids);
        return membershipHash.thenCompose(hash -> known.answers(hash.getOrDefault(NoticeKeys.READS_STAMP, ""), ids)
                ? CompletableFuture.completedFuture(known.read()) : readMarksAsync(userId, ids));
    }

    private void remember(long userId, Set<String> joined, KnownReads known, String stamp, NoticeIds asked, NoticeIds read) {
        boolean same = known != null && known.answers(stamp, asked);
        hints.remember(userId, joined, same ? known : KnownReads.of(stamp, asked, read));
    }

    static BroadcastUnread count(Memberships memberships, List<LiveNotice> notices, NoticeIds read, long now) {
        long floor = memberships.noticeFloor();
        long[] unread = new long[notices.size()];
        int length = 0;
        long nextExpiry = 0;
        for (LiveNotice notice : notices) {
            if (!memberships.receives(notice) || notice.publishedAtMillis() <= floor || !notice.liveAt(now)) continue;
            if (read.contains(notice.noticeId())) continue;
            unread[length++] = notice.noticeId();
            if (notice.expiresAtMillis() > 0 && (nextExpiry == 0 || notice.expiresAtMillis() < nextExpiry)) {
                nextExpiry = notice.expiresAtMillis();
            }
        }
        return length == 0 ? BroadcastUnread.NONE : new BroadcastUnread(NoticeIds.sortedDistinct(unread, length).size(), nextExpiry);
    }

    /**
     * Newest-first page of the user's notice inbox, read and unread together: the targeted entries and the live
     * broadcasts of their audiences (published after they joined), each id once, continuing after {@code cursor}.
     *
     * @throws InvalidCursorException when the cursor is malformed
     */
    public NoticePage page(long userId, int limit, String cursor) {
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        long now = clock.getAsLong();
        List<NoticeItem> candidates = new ArrayList<>();
        Memberships memberships = memberships(userId);
        for (LiveNotice notice : receivedBroadcasts(memberships, now)) {
            candidates.add(new NoticeItem(notice.noticeId(), notice.audience(), notice.publishedAtMillis(), notice.expiresAtMillis(), false));
        }
        for (ScoredValue<String> entry : inboxFrom(userId, after, limit)) {
            candidates.add(new NoticeItem(Long.parseLong(entry.getValue()), null, (long) entry.getScore(), 0, false));
        }
        candidates.sort(NoticeItem.NEWEST_FIRST);
        List<NoticeItem> page = new ArrayList<>(limit);
        Set<Long> listed = new HashSet<>();
        boolean more = false;
        for (NoticeItem item : candidates) {
            if (after != null && !after.precedes(item.atMillis(), Long.toString(item.noticeId()))) continue;
            if (!listed.add(item.noticeId())) continue;
            if (page.size() == limit) {
                more = true;
                break;
            }
            page.add(item);
        }
        List<NoticeItem> flagged = withReadFlags(userId, page, memberships.noticeFloor());
        NoticeItem last = flagged.isEmpty() ? null : flagged.getLast();
        return new NoticePage(flagged, more ? new PageCursor(last.atMillis(), Long.toString(last.noticeId())).encode() : null);
    }

    /** Whether the user can read the notice, and whether they did. */
    public NoticeState notice(long userId, long noticeId) {
        RedisClusterCommands<String, String> redis = connection.sync();
        Double sentAt = redis.zscore(keys.inbox(userId), Long.toString(noticeId));
        Memberships memberships = memberships(userId);
        NoticeItem item = sentAt != null ? new NoticeItem(noticeId, null, sentAt.longValue(), 0, false) : null;
        if (item == null) {
            for (LiveNotice notice : receivedBroadcasts(memberships, clock.getAsLong())) {
                if (notice.noticeId() == noticeId) {
                    item = new NoticeItem(noticeId, notice.audience(), notice.publishedAtMillis(), notice.expiresAtMillis(), false);
                    break;
                }
            }
        }
        if (item == null) {
            return new NoticeState(noticeId, false, redis.zscore(keys.noticeReads(userId), Long.toString(noticeId)) != null, null);
        }
        NoticeItem flagged = withReadFlags(userId, List.of(item), memberships.noticeFloor()).getFirst();
        return new NoticeState(noticeId, true, flagged.read(), flagged);
    }

    /** The audiences the user receives broadcasts of now, everyone's included. */
    public Set<String> audiences(long userId) {
        Set<String> audiences = new LinkedHashSet<>();
        audiences.add(NoticeKeys.EVERYONE);
        audiences.addAll(memberships(userId).joined());
        return audiences;
    }

    /** The user's memberships and notice floor, from their audiences hash. */
    private Memberships memberships(long userId) {
        return Memberships.of(BoundedHashRead.read(connection, keys.audiences(userId), hashReadFields, NoticeKeys.NOTICE_FLOOR,
                NoticeKeys.READS_STAMP).fields());
    }

    /** The live, unexpired broadcasts of the user's audiences published after they joined, each id once. */
    private List<LiveNotice> receivedBroadcasts(Memberships memberships, long now) {
        List<LiveNotice> received = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (LiveNotice notice : join(liveNoticesOf(NoticeKeys.EVERYONE, memberships.joined()))) {
            if (memberships.receives(notice) && notice.liveAt(now) && seen.add(notice.noticeId())) received.add(notice);
        }
        return received;
    }

    /**
     * The inbox entries at or after the cursor's time, newest first: those tied with the cursor's time are fetched too
     * (at most the inbox cap), so that the caller can skip the ones before it.
     */
    private List<ScoredValue<String>> inboxFrom(long userId, PageCursor after, int limit) {
        RedisClusterCommands<String, String> redis = connection.sync();
        String inbox = keys.inbox(userId);
        if (after == null) return redis.zrevrangebyscoreWithScores(inbox, Range.unbounded(), Limit.create(0, limit + 1));
        long ties = redis.zcount(inbox, Range.create(after.score(), after.score()));
        return redis.zrevrangebyscoreWithScores(inbox, Range.from(Range.Boundary.unbounded(), Range.Boundary.including(after.score())),
                Limit.create(0, ties + limit + 1));
    }

    /** The items with their read flags: a read mark, or a time at or before one of the floors. */
    private List<NoticeItem> withReadFlags(long userId, List<NoticeItem> items, long floor) {
        if (items.isEmpty()) return items;
        long[] ids = items.stream().mapToLong(NoticeItem::noticeId).toArray();
        NoticeIds marked = join(readMarksAsync(userId, NoticeIds.sortedDistinct(ids, ids.length)));
        return items.stream()
                .map(item -> new NoticeItem(item.noticeId(), item.audience(), item.atMillis(), item.expiresAtMillis(),
                        marked.contains(item.noticeId()) || item.atMillis() <= floor))
                .toList();
    }

    /** The live notices of {@code first} (unless null) and of the audiences, in one list once all arrived. */
    private CompletionStage<List<LiveNotice>> liveNoticesOf(String first, Collection<String> audiences) {
        List<CompletableFuture<List<LiveNotice>>> lists = new ArrayList<>();
        if (first != null) lists.add(source.liveNotices(connection, first).toCompletableFuture());
        for (String audience : audiences) lists.add(source.liveNotices(connection, audience).toCompletableFuture());
        if (lists.isEmpty()) return CompletableFuture.completedFuture(List.of());
        if (lists.size() == 1) return lists.getFirst();
        return CompletableFuture.allOf(lists.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<LiveNotice> all = new ArrayList<>();
            lists.forEach(list -> all.addAll(list.join()));
            return all;
        });
    }

    /**
     * Which of the ids the user has a read mark for: one ZMSCORE, none when there are no ids. The ids go out as bytes:
     * Lettuce encodes a String argument through a buffer of its own, which cost more than the rest of the read.
     */
    private CompletionStage<NoticeIds> readMarksAsync(long userId, NoticeIds ids) {
        if (ids.isEmpty()) return CompletableFuture.completedFuture(NoticeIds.NONE);
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).addKey(keys.noticeReads(userId));
        for (int i = 0; i < ids.size(); i++) args.add(UnreadKeys.decimal(ids.get(i)));
        return connection.async().dispatch(CommandType.ZMSCORE, new DoubleListOutput<>(StringCodec.UTF8), args).thenApply(scores -> {
            long[] read = new long[ids.size()];
            int length = 0;
            for (int i = 0; i < ids.size(); i++) {
                if (scores.get(i) != null) read[length++] = ids.get(i);
            }
            return NoticeIds.sortedDistinct(read, length);
        });
    }

    private static List<LiveNotice> concat(List<LiveNotice> first, List<LiveNotice> second) {
        if (second.isEmpty()) return first;
        List<LiveNotice> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /** Waits as the sync API does: at most the connection's command timeout, Redis's own failures rethrown as they are. */
    private <T> T join(CompletionStage<T> stage) {
        Duration timeout = connection.stateful().getTimeout();
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) throw failure;
            throw new RedisException(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisCommandTimeoutException("notices not read within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted while reading notices", e);
        }
    }
}
