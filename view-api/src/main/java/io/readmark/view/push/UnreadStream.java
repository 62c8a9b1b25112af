package io.readmark.view.push;

import io.readmark.view.routes.AuthorCountsJson;
import io.readmark.view.routes.InboxCounts;
import io.readmark.view.routes.ViewRoutes;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.readmark.common.http.EventSink;
import io.readmark.common.http.ServerSentEvent;
import io.readmark.schemas.Json;
import io.readmark.store.unread.AuthorCounts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * One open stream of one user's counts. A change notification (sent by the script that made the change, after it made
 * it) makes the stream read the counts again and push them with the changes; a read issued after a notification
 * arrived sees that change, so a push is never ahead of the state nor contradicts it. At most one read is in flight:
 * pushes go out in order and never go backwards, and changes arriving meanwhile are coalesced into the next read (at
 * most {@value #MAX_CHANGES} listed, the rest counted), so a burst costs one read per round trip and a stream never
 * queues more than one pending read. Once its {@link StreamLifetime} is over the stream ends with a last event,
 * {@value #RECONNECT}, that says why; nothing is pushed after it.
 */
final class UnreadStream implements ChangeFeed.Listener {

    static final int MAX_CHANGES = 100;
    static final String EVENT = "counts";
    static final String RECONNECT = "reconnect";

    /**
     * What changed, as the scripts say it ({@code notify.lua}): the user's state version after it, a kind, then the
     * author and blog of a blog change, the notice of a notice change, the audience of a membership change. A broadcast
     * (its audience's) or an expiry changes no user's keys: it has no version.
     */
    record Change(@JsonInclude(JsonInclude.Include.NON_NULL) Long version, String kind,
                  @JsonInclude(JsonInclude.Include.NON_NULL) Long authorId,
                  @JsonInclude(JsonInclude.Include.NON_NULL) Long blogId,
                  @JsonInclude(JsonInclude.Include.NON_NULL) Long noticeId,
                  @JsonInclude(JsonInclude.Include.NON_NULL) String audience) {

        static final Change EXPIRED = new Change(null, "notice-expired", null, null, null, null);

        /**
         * A message on the user's channel: {@code version kind [...]}, or {@code kind [...]} from the scripts of a
         * processor not yet upgraded.
         */
        static Change parse(String message) {
            String[] parts = message.split(" ");
            int at = Character.isDigit(parts[0].charAt(0)) ? 1 : 0;
            Long version = at == 1 ? Long.valueOf(parts[0]) : null;
            String kind = parts[at];
            return switch (kind) {
                case "notice", "notice-read" -> new Change(version, kind, null, null, id(parts, at + 1), null);
                case "joined", "left" -> new Change(version, kind, null, null, null, parts[at + 1]);
                default -> new Change(version, kind, id(parts, at + 1), id(parts, at + 2), null, null);
            };
        }

        private static Long id(String[] parts, int index) {
            return parts.length > index ? Long.valueOf(parts[index]) : null;
        }

        /** A message on an audience's channel: {@code published <id>} or {@code withdrawn <id>}. */
        static Change ofAudience(String audience, String message) {
            String[] parts = message.split(" ");
            return new Change(null, "notice-" + parts[0], null, null, parts.length > 1 ? Long.valueOf(parts[1]) : null, audience);
        }

        boolean membership() {
            return kind.equals("joined") || kind.equals("left");
        }
    }

    /** The counts as {@code GET /v1/users/{userId}/unread} answers them, and the changes they include. */
    record ChangedBody(long userId, long total, long unseen, long notices,
                       @JsonSerialize(using = AuthorCountsJson.class) AuthorCounts byAuthor,
                       @JsonInclude(JsonInclude.Include.NON_DEFAULT) long authorsOmitted, long version, List<Change> changes,
                       @JsonInclude(JsonInclude.Include.NON_DEFAULT) int changesOmitted) {
    }

    /** Follows the channels of the user's audiences: (re)subscribes to those the user is in now; may block. */
    interface Audiences {
        void follow(UnreadStream stream);

        void stop();
    }

    /** Why the server ended a stream: {@code token-expired} (reconnect with a fresh token) or {@code max-age}. */
    record ReconnectBody(String reason) {
    }

    /** How the stream ends; {@code reason} names the server's reason in the metrics, null when there is none. */
    enum Ending {
        CLIENT(null), NOT_STARTED(null), SLOW("slow"), REDIS("redis"), TOKEN_EXPIRED("token-expired"), MAX_AGE("max-age");

        final String reason;

        Ending(String reason) {
            this.reason = reason;
        }
    }

    interface Owner {
        void pushed();

        void ended(UnreadStream stream, Ending ending);

        /** Runs the task after the delay, off the caller's thread. */
        void schedule(Runnable task, long delayMillis);
    }

    private final long userId;
    private final LongFunction<CompletionStage<InboxCounts>> readCounts;
    private final Owner owner;
    private final Audiences audiences;
    private final LongSupplier clock;
    private final StreamLifetime lifetime;
    private ChangeFeed.Subscription subscription; // guarded by this; set once, before open
    private EventSink sink; // guarded by this; null until open
    private List<Change> pending = new ArrayList<>(); // guarded by this
    private int omitted; // guarded by this
    private boolean dirty; // guarded by this
    private boolean reading; // guarded by this
    private boolean ended; // guarded by this
    private long sequence; // guarded by this
    private long expiryScheduled; // guarded by this: the notice expiry a resync is scheduled for, 0 if none
    private int refreshesFailed; // guarded by this: failed refreshes of the live key in a row

    UnreadStream(long userId, LongFunction<CompletionStage<InboxCounts>> readCounts, Owner owner, Audiences audiences,
                 LongSupplier clock, StreamLifetime lifetime) {
        this.userId = userId;
        this.readCounts = readCounts;
        this.owner = owner;
        this.audiences = audiences;
        this.clock = clock;
        this.lifetime = lifetime;
    }

    long userId() {
        return userId;
    }

    void subscribed(ChangeFeed.Subscription subscription) {
        synchronized (this) {
            if (!ended) {
                this.subscription = subscription;
                return;
            }
        }
        subscription.cancel(); // lost while subscribing
    }

    /** Starts sending: the retry hint, the snapshot read at the start, then whatever changed since. */
    void open(EventSink sink, InboxCounts snapshot, Duration retry) {
        sink.onClose(() -> end(sink.wasDropped() ? Ending.SLOW : Ending.CLIENT));
        boolean sent;
        synchronized (this) {
            if (ended) {
                sink.close();
                return;
            }
            this.sink = sink;
            sink.retry(retry);
            sent = send(ViewRoutes.CountsBody.of(snapshot, OptionalInt.empty()));
            scheduleExpiry(snapshot);
        }
        if (!sent) {
            end(Ending.SLOW);
            return;
        }
        readIfNeeded();
    }

    @Override
    public void changed(String message) {
        Change change = Change.parse(message);
        if (!change.membership()) {
            changed(change);
            return;
        }
        // Follow the audience's channel before reading the counts that include it, so no broadcast falls between.
        synchronized (this) {
            if (ended) return;
            note(change);
        }
        Thread.ofVirtual().name("view-api-stream-audiences").start(() -> {
            try {
                audiences.follow(this);
            } catch (RuntimeException e) {
                end(Ending.REDIS);
                return;
            }
            resync();
        });
    }

    /** A change of the user's state, or of one of their audiences' notices. */
    void changed(Change change) {
        synchronized (this) {
            if (ended) return;
            note(change);
            dirty = true;
        }
        readIfNeeded();
    }

    private void note(Change change) {
        if (pending.size() < MAX_CHANGES) pending.add(change); else omitted++;
    }

    /** Reads and pushes the counts though no change was heard: one may have gone unpublished. */
    void resync() {
        synchronized (this) {
            dirty = true;
        }
        readIfNeeded();
    }

    /** The subscription broke: changes may have been missed, so the client reconnects and starts from a snapshot. */
    @Override
    public void lost() {
        end(Ending.REDIS);
    }

    /** The live key's refresh failed: true when so many failed in a row that the stream must end. */
    synchronized boolean refreshFailed() {
        return ++refreshesFailed >= StreamSettings.REFRESH_FAILURES_ENDING_STREAMS;
    }

    synchronized void refreshSucceeded() {
        refreshesFailed = 0;
    }

    void heartbeat() {
        EventSink current;
        synchronized (this) {
            current = sink;
        }
        if (current != null && current.isOpen() && !current.comment("heartbeat")) end(Ending.SLOW);
    }

    /** Ends the stream once its lifetime is over, telling the client to reconnect; true when it did. */
    boolean endIfOver() {
        if (!lifetime.isOver(clock.getAsLong())) return false;
        end(lifetime.ending(), new ReconnectBody(lifetime.ending().reason));
        return true;
    }

    private void readIfNeeded() {
        List<Change> changes;
        int changesOmitted;
        Executor loop;
        synchronized (this) {
            if (sink == null || ended || reading || !dirty) return;
            reading = true;
            dirty = false;
            changes = pending;
            changesOmitted = omitted;
            pending = new ArrayList<>();
            omitted = 0;
            loop = sink.executor();
        }
        // On the stream's own loop, not the thread that heard the change: one change channel's messages all arrive on
        // one thread, and the reads, answers and writes of a post to many live users would queue behind each other.
        try {
            loop.execute(() -> read(changes, changesOmitted));
        } catch (RejectedExecutionException e) { // the server is shutting down
            end(Ending.CLIENT);
        }
    }

    private void read(List<Change> changes, int changesOmitted) {
        CompletionStage<InboxCounts> read;
        try {
            read = readCounts.apply(userId);
        } catch (RuntimeException e) {
            end(Ending.REDIS);
            return;
        }
        read.whenComplete((counts, failure) -> {
            if (failure != null) {
                end(Ending.REDIS);
                return;
            }
            boolean sent;
            synchronized (this) {
                reading = false;
                if (ended) return;
                sent = send(new ChangedBody(userId, counts.total(), counts.unseen(), counts.notices(),
                        counts.blogs().byAuthor(), counts.blogs().authorsOmitted(), counts.blogs().version(), changes, changesOmitted));
                scheduleExpiry(counts);
            }
            if (!sent) {
                end(Ending.SLOW);
                return;
            }
            owner.pushed();
            readIfNeeded();
        });
    }

    /**
     * Sends one counts event; false when a client too slow to take it was dropped (the sink refuses rather than
     * buffers). A stream the client closed meanwhile counts as sent: its close handler ends it.
     */
    private boolean send(Object body) {
        boolean wasOpen = sink.isOpen();
        return sink.send(new ServerSentEvent(Long.toString(++sequence), EVENT, json(body))) || !wasOpen;
    }

    /** A notice that expires leaves the count without any event: the stream reads again when it does. */
    private void scheduleExpiry(InboxCounts counts) {
        long expiry = counts.broadcasts().nextExpiryMillis();
        if (expiry == 0 || expiry == expiryScheduled) return;
        expiryScheduled = expiry;
        owner.schedule(() -> changed(Change.EXPIRED), Math.max(0, expiry - clock.getAsLong()) + 1);
    }

    private static String json(Object body) {
        try {
            return Json.MAPPER.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("counts did not serialize", e);
        }
    }

    synchronized boolean isEnded() {
        return ended;
    }

    void end(Ending ending) {
        end(ending, null);
    }

    private void end(Ending ending, ReconnectBody last) {
        EventSink current;
        ChangeFeed.Subscription subscribed;
        synchronized (this) {
            if (ended) return;
            ended = true;
            current = sink;
            subscribed = subscription;
            // Under the lock pushes are sent under, with ended set: no push can follow the last event.
            if (last != null && current != null) {
                current.send(new ServerSentEvent(Long.toString(++sequence), RECONNECT, json(last)));
            }
        }
        if (subscribed != null) subscribed.cancel();
        audiences.stop();
        if (current != null) current.close();
        owner.ended(this, ending);
    }
}
