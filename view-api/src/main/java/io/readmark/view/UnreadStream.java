package io.readmark.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.readmark.common.http.EventSink;
import io.readmark.common.http.ServerSentEvent;
import io.readmark.schemas.Json;
import io.readmark.store.UnreadCounts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.LongFunction;

/**
 * One open stream of one user's counts. A change notification (sent by the script that made the change, after it made
 * it) makes the stream read the counts again and push them with the changes; a read issued after a notification
 * arrived sees that change, so a push is never ahead of the state nor contradicts it. At most one read is in flight:
 * pushes go out in order and never go backwards, and changes arriving meanwhile are coalesced into the next read (at
 * most {@value #MAX_CHANGES} listed, the rest counted), so a burst costs one read per round trip and a stream never
 * queues more than one pending read.
 */
final class UnreadStream implements ChangeFeed.Listener {

    static final int MAX_CHANGES = 100;
    static final String EVENT = "counts";

    /** What changed, as {@code notify.lua} says it: kind, then author and blog where there is one. */
    record Change(String kind, @JsonInclude(JsonInclude.Include.NON_NULL) Long authorId,
                  @JsonInclude(JsonInclude.Include.NON_NULL) Long blogId) {

        static Change parse(String message) {
            String[] parts = message.split(" ");
            return new Change(parts[0], parts.length > 1 ? Long.valueOf(parts[1]) : null, parts.length > 2 ? Long.valueOf(parts[2]) : null);
        }
    }

    /** The counts as {@code GET /v1/users/{userId}/unread} answers them, and the changes they include. */
    record ChangedBody(long userId, long total, long unseen, Map<String, Long> byAuthor, List<Change> changes,
                       @JsonInclude(JsonInclude.Include.NON_DEFAULT) int changesOmitted) {
    }

    /** How the stream ends, for the metrics. */
    enum Ending { CLIENT, SLOW, REDIS, NOT_STARTED }

    interface Owner {
        void pushed();

        void ended(UnreadStream stream, Ending ending);
    }

    private final long userId;
    private final LongFunction<CompletionStage<UnreadCounts>> readCounts;
    private final Owner owner;
    private ChangeFeed.Subscription subscription; // guarded by this; set once, before open
    private EventSink sink; // guarded by this; null until open
    private List<Change> pending = new ArrayList<>(); // guarded by this
    private int omitted; // guarded by this
    private boolean dirty; // guarded by this
    private boolean reading; // guarded by this
    private boolean ended; // guarded by this
    private long sequence; // guarded by this

    UnreadStream(long userId, LongFunction<CompletionStage<UnreadCounts>> readCounts, Owner owner) {
        this.userId = userId;
        this.readCounts = readCounts;
        this.owner = owner;
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
    void open(EventSink sink, ViewRoutes.CountsBody snapshot, Duration retry) {
        sink.onClose(() -> end(sink.wasDropped() ? Ending.SLOW : Ending.CLIENT));
        boolean sent;
        synchronized (this) {
            if (ended) {
                sink.close();
                return;
            }
            this.sink = sink;
            sink.retry(retry);
            sent = send(snapshot);
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
        synchronized (this) {
            if (ended) return;
            if (pending.size() < MAX_CHANGES) pending.add(change); else omitted++;
            dirty = true;
        }
        readIfNeeded();
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

    void heartbeat() {
        EventSink current;
        synchronized (this) {
            current = sink;
        }
        if (current != null && current.isOpen() && !current.comment("heartbeat")) end(Ending.SLOW);
    }

    private void readIfNeeded() {
        List<Change> changes;
        int changesOmitted;
        synchronized (this) {
            if (sink == null || ended || reading || !dirty) return;
            reading = true;
            dirty = false;
            changes = pending;
            changesOmitted = omitted;
            pending = new ArrayList<>();
            omitted = 0;
        }
        readCounts.apply(userId).whenComplete((counts, failure) -> {
            if (failure != null) {
                end(Ending.REDIS);
                return;
            }
            boolean sent;
            synchronized (this) {
                reading = false;
                if (ended) return;
                sent = send(new ChangedBody(userId, counts.total(), counts.unseen(), ViewRoutes.CountsBody.byAuthor(counts), changes,
                        changesOmitted));
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
        EventSink current;
        ChangeFeed.Subscription subscribed;
        synchronized (this) {
            if (ended) return;
            ended = true;
            current = sink;
            subscribed = subscription;
        }
        if (subscribed != null) subscribed.cancel();
        if (current != null) current.close();
        owner.ended(this, ending);
    }
}
