package io.readmark.store;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
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
 * <p>Worst case per request: the user's membership hash, at most {@value Memberships#MAX_AUDIENCES} audiences of at
 * most the per-audience cap of notices each (from the source), and one {@code ZMSCORE} of those ids; a page adds at
 * most the inbox cap of targeted entries.
 */
public final class NoticeReader {

    private static final String NOTICES_FLOOR = "notices";
    private static final String ALL_FLOOR = "all";

    private final RedisConnections.Connection connection;
    private final NoticeKeys keys;
    private final UnreadKeys unreadKeys;
    private final LiveNoticeSource source;
    private final MembershipHints hints;
    private final LongSupplier clock;

    public NoticeReader(RedisConnections.Connection connection, UnreadKeys unreadKeys, LiveNoticeSource source, LongSupplier clock) {
        this(connection, unreadKeys, source, MembershipHints.NONE, clock);
    }

    public NoticeReader(RedisConnections.Connection connection, UnreadKeys unreadKeys, LiveNoticeSource source,
                        MembershipHints hints, LongSupplier clock) {
        this.connection = connection;
        this.unreadKeys = unreadKeys;
        this.keys = new NoticeKeys(unreadKeys.prefix());
        this.source = source;
        this.hints = hints;
        this.clock = clock;
    }

    /**
     * The user's unread broadcasts: live notices of their audiences published after they joined and after both floors
     * ({@code NoticesAllRead}, {@code AllRead}), without a read mark, each id once. Everyone's live notices and those
     * of the audiences the user was in when last read go to Redis in one read-only script ({@code notice_unread.lua})
     * that also returns the memberships, in the same flush as the caller's other reads; only a user whose audiences
     * changed since costs a second round trip. With no such notice live, the memberships alone are read.
     */
    public CompletionStage<BroadcastUnread> broadcastUnreadAsync(long userId) {
        Set<String> guessed = hints.audiences(userId);
        return liveNoticesOf(NoticeKeys.EVERYONE, guessed).thenCompose(early -> {
            List<LiveNotice> candidates = live(early);
            if (candidates.isEmpty()) {
                return connection.async().hgetall(keys.audiences(userId)).thenCompose(hash -> {
                    Memberships memberships = remembered(userId, hash);
                    if (memberships.joined().isEmpty()) return CompletableFuture.completedFuture(BroadcastUnread.NONE);
                    return liveNoticesOf(null, memberships.joined()).thenCompose(more -> exactly(userId, live(more)));
                });
            }
            return unreadAmong(userId, candidates).thenCompose(answer -> {
                Memberships memberships = remembered(userId, answer.memberships());
                if (memberships.joined().equals(guessed)) return CompletableFuture.completedFuture(answer.unread());
                return liveNoticesOf(NoticeKeys.EVERYONE, memberships.joined()).thenCompose(all -> exactly(userId, live(all)));
            });
        });
    }

    /** The script's answer: the user's memberships hash, and which of the notices sent are unread. */
    private record UnreadAnswer(Map<String, String> memberships, BroadcastUnread unread) {
    }

    /** The unread among notices of audiences known to be the user's: the script's memberships are not needed. */
    private CompletionStage<BroadcastUnread> exactly(long userId, List<LiveNotice> candidates) {
        if (candidates.isEmpty()) return CompletableFuture.completedFuture(BroadcastUnread.NONE);
        return unreadAmong(userId, candidates).thenApply(UnreadAnswer::unread);
    }

    @SuppressWarnings("unchecked")
    private CompletionStage<UnreadAnswer> unreadAmong(long userId, List<LiveNotice> candidates) {
        String[] scriptKeys = {keys.audiences(userId), keys.noticeReads(userId), unreadKeys.floors(userId)};
        String[] args = new String[1 + 3 * candidates.size()];
        args[0] = NoticeKeys.EVERYONE;
        for (int i = 0; i < candidates.size(); i++) {
            LiveNotice notice = candidates.get(i);
            args[1 + 3 * i] = notice.audience();
            args[2 + 3 * i] = Long.toString(notice.noticeId());
            args[3 + 3 * i] = Long.toString(notice.publishedAtMillis());
        }
        return runAsync(ReadScript.NOTICE_UNREAD, scriptKeys, args).thenApply(reply -> {
            List<String> flat = (List<String>) reply.get(0);
            Map<String, String> memberships = new HashMap<>();
            for (int i = 0; i + 1 < flat.size(); i += 2) memberships.put(flat.get(i), flat.get(i + 1));
            Set<Long> unread = new HashSet<>();
            for (Object id : (List<Object>) reply.get(1)) unread.add(Long.parseLong((String) id));
            long nextExpiry = 0;
            for (LiveNotice notice : candidates) {
                if (unread.contains(notice.noticeId()) && notice.expiresAtMillis() > 0
                        && (nextExpiry == 0 || notice.expiresAtMillis() < nextExpiry)) {
                    nextExpiry = notice.expiresAtMillis();
                }
            }
            return new UnreadAnswer(memberships, unread.isEmpty() ? BroadcastUnread.NONE : new BroadcastUnread(unread.size(), nextExpiry));
        });
    }

    private Memberships remembered(long userId, Map<String, String> hash) {
        Memberships memberships = Memberships.of(hash);
        hints.remember(userId, memberships.joined());
        return memberships;
    }

    /** The notices not expired now. */
    private List<LiveNotice> live(List<LiveNotice> notices) {
        long now = clock.getAsLong();
        return notices.stream().filter(notice -> notice.liveAt(now)).toList();
    }

    /** Scripts vanish when Redis restarts or fails over; EVAL sends the body and caches it again. */
    private CompletionStage<List<Object>> runAsync(ReadScript script, String[] scriptKeys, String... args) {
        CompletableFuture<List<Object>> answer = new CompletableFuture<>();
        connection.async().<List<Object>>evalsha(script.sha(), ScriptOutputType.MULTI, scriptKeys, args).whenComplete((reply, failure) -> {
            if (failure == null) {
                answer.complete(reply);
            } else if (failure instanceof RedisNoScriptException) {
                connection.async().<List<Object>>eval(script.body(), ScriptOutputType.MULTI, scriptKeys, args).whenComplete((retried, again) -> {
                    if (again == null) answer.complete(retried); else answer.completeExceptionally(again);
                });
            } else {
                answer.completeExceptionally(failure);
            }
        });
        return answer;
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
        for (LiveNotice notice : receivedBroadcasts(userId, now)) {
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
        List<NoticeItem> flagged = withReadFlags(userId, page);
        NoticeItem last = flagged.isEmpty() ? null : flagged.getLast();
        return new NoticePage(flagged, more ? new PageCursor(last.atMillis(), Long.toString(last.noticeId())).encode() : null);
    }

    /** Whether the user can read the notice, and whether they did. */
    public NoticeState notice(long userId, long noticeId) {
        RedisClusterCommands<String, String> redis = connection.sync();
        Double sentAt = redis.zscore(keys.inbox(userId), Long.toString(noticeId));
        NoticeItem item = sentAt != null ? new NoticeItem(noticeId, null, sentAt.longValue(), 0, false) : null;
        if (item == null) {
            for (LiveNotice notice : receivedBroadcasts(userId, clock.getAsLong())) {
                if (notice.noticeId() == noticeId) {
                    item = new NoticeItem(noticeId, notice.audience(), notice.publishedAtMillis(), notice.expiresAtMillis(), false);
                    break;
                }
            }
        }
        if (item == null) {
            return new NoticeState(noticeId, false, redis.zscore(keys.noticeReads(userId), Long.toString(noticeId)) != null, null);
        }
        NoticeItem flagged = withReadFlags(userId, List.of(item)).getFirst();
        return new NoticeState(noticeId, true, flagged.read(), flagged);
    }

    /** The audiences the user receives broadcasts of now, everyone's included. */
    public Set<String> audiences(long userId) {
        return Memberships.of(connection.sync().hgetall(keys.audiences(userId))).joinedAt().keySet();
    }

    /** The live, unexpired broadcasts of the user's audiences published after they joined, each id once. */
    private List<LiveNotice> receivedBroadcasts(long userId, long now) {
        Memberships memberships = Memberships.of(connection.sync().hgetall(keys.audiences(userId)));
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
    private List<NoticeItem> withReadFlags(long userId, List<NoticeItem> items) {
        if (items.isEmpty()) return items;
        Set<Long> marked = join(readMarksAsync(userId, items.stream().map(NoticeItem::noticeId).toList()));
        long floor = join(floorAsync(userId));
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

    /** The larger of the notices floor and the all-read floor, 0 when neither is set. */
    private CompletionStage<Long> floorAsync(long userId) {
        return connection.async().hmget(unreadKeys.floors(userId), NOTICES_FLOOR, ALL_FLOOR).thenApply(values -> {
            long floor = 0;
            for (KeyValue<String, String> value : values) {
                if (value.hasValue()) floor = Math.max(floor, Long.parseLong(value.getValue()));
            }
            return floor;
        });
    }

    /** Which of the ids the user has a read mark for: one ZMSCORE, none when there are no ids. */
    private CompletionStage<Set<Long>> readMarksAsync(long userId, Collection<Long> ids) {
        if (ids.isEmpty()) return CompletableFuture.completedFuture(Set.of());
        List<Long> asked = List.copyOf(ids);
        String[] members = asked.stream().map(String::valueOf).toArray(String[]::new);
        return connection.async().zmscore(keys.noticeReads(userId), members).thenApply(scores -> {
            Set<Long> read = new HashSet<>();
            for (int i = 0; i < asked.size(); i++) {
                if (scores.get(i) != null) read.add(asked.get(i));
            }
            return read;
        });
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
