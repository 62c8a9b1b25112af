package io.readmark.schemas;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An event may not say it happened more than {@code maxSkew} after it was recorded: after its Kafka record's timestamp
 * in the processor, after the clock of whoever publishes it before that. Read floors, seen watermarks and follow times
 * only move forward, so one event dated far ahead would otherwise hide a user's later posts for good, and a rebuild
 * would replay it. Only the instant of the event itself is checked; a notice's {@code expiresAt} lies ahead by
 * design, and events dated in the past (imports, replays) pass.
 *
 * @param maxSkew how far an event's instant may lie ahead of its record's time: the clocks' disagreement allowed
 */
public record EventTimeLimit(Duration maxSkew) {

    /** The setting that every reader of events takes the skew from; the producer API and the processor share it. */
    public static final String SETTING = "READMARK_MAX_EVENT_SKEW";
    public static final Duration DEFAULT_MAX_SKEW = Duration.ofHours(1);
    /** Far beyond any clock's error; bounded so that adding it to any record timestamp stays an instant. */
    private static final Duration LARGEST_MAX_SKEW = Duration.ofDays(36_500);
    public static final EventTimeLimit DEFAULT = new EventTimeLimit(DEFAULT_MAX_SKEW);

    /** The instant an event says it happened, and the field that holds it. */
    public record EventTime(String field, Instant instant) {
    }

    public EventTimeLimit {
        Objects.requireNonNull(maxSkew, "maxSkew");
        if (maxSkew.isNegative() || maxSkew.compareTo(LARGEST_MAX_SKEW) > 0) {
            throw new IllegalArgumentException(SETTING + " must be between PT0S and " + LARGEST_MAX_SKEW + ", was " + maxSkew);
        }
    }

    /**
     * Refuses {@code event} if its instant is more than the skew after {@code recordedAt}.
     *
     * @throws InvalidEventException naming the event's instant field
     */
    public void check(Event event, Instant recordedAt) {
        EventTime time = timeOf(event);
        Instant latest = recordedAt.plus(maxSkew);
        if (time.instant().isAfter(latest)) {
            throw new InvalidEventException(time.field(), "is " + time.instant() + ", more than " + maxSkew
                    + " after the event was recorded (" + recordedAt + "); an event may not be dated in the future");
        }
    }

    /** The instant {@code event} says it happened: never a notice's {@code expiresAt}, which is meant to lie ahead. */
    public static EventTime timeOf(Event event) {
        return switch (event) {
            case BlogPublished e -> new EventTime("publishedAt", e.publishedAt());
            case BlogDeleted e -> new EventTime("deletedAt", e.deletedAt());
            case Followed e -> new EventTime("at", e.at());
            case Unfollowed e -> new EventTime("at", e.at());
            case BlogRead e -> new EventTime("readAt", e.readAt());
            case BlogsRead e -> new EventTime("readAt", e.readAt());
            case AuthorReadAll e -> new EventTime("readAt", e.readAt());
            case AllRead e -> new EventTime("readAt", e.readAt());
            case InboxSeen e -> new EventTime("seenAt", e.seenAt());
            case NoticeRead e -> new EventTime("readAt", e.readAt());
            case NoticesAllRead e -> new EventTime("readAt", e.readAt());
            case NoticePublished e -> new EventTime("publishedAt", e.publishedAt());
            case NoticeWithdrawn e -> new EventTime("withdrawnAt", e.withdrawnAt());
            case AudienceJoined e -> new EventTime("at", e.at());
            case AudienceLeft e -> new EventTime("at", e.at());
            case NoticeSent e -> new EventTime("sentAt", e.sentAt());
        };
    }
}
