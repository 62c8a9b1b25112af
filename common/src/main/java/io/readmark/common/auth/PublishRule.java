package io.readmark.common.auth;

import io.readmark.common.http.ApiException;
import io.readmark.schemas.BlogEvent;
import io.readmark.schemas.Event;
import io.readmark.schemas.FollowEvent;
import io.readmark.schemas.NoticeEvent;
import io.readmark.schemas.ReadEvent;

import java.util.Optional;

/**
 * Which events a token may publish: each kind of event needs the scope of its kind, and {@link Scopes#PUBLISH} allows
 * every event. A read event must be the token's own user's ({@code userId} = {@code sub}) unless the token has
 * {@link Scopes#PUBLISH}; a notice to {@code everyone} needs {@link Scopes#PUBLISH_BROADCAST}, which
 * {@link Scopes#PUBLISH_NOTICES} does not include.
 */
public final class PublishRule {

    /** In front of the publish routes: a token that may publish nothing is refused before its body is read. */
    public static final AccessRule ANY_PUBLISHING_SCOPE = AccessRule.anyScope(Scopes.PUBLISHING);

    /** Why one event is refused: its type, the scope that would allow it and the field that made it necessary. */
    public record Refusal(String eventType, String scope, String field, String detail) {

        /** The 403 answer when the event came alone. */
        public ApiException toException() {
            return BearerChallenge.insufficientScope(scope, field, detail);
        }
    }

    private PublishRule() {
    }

    /** Why {@code caller} may not publish {@code event}, or empty when it may; a null caller (authentication off) may. */
    public static Optional<Refusal> check(Principal caller, Event event) {
        if (caller == null || caller.hasScope(Scopes.PUBLISH)) return Optional.empty();
        String type = event.typeName();
        if (event instanceof ReadEvent read && !ownUser(caller, read.userId())) {
            return Optional.of(new Refusal(type, Scopes.PUBLISH, "userId", "scope " + Scopes.PUBLISH_READS
                    + " publishes read events of the token's own user (sub) only; " + type + " of user " + read.userId()
                    + " needs scope " + Scopes.PUBLISH));
        }
        String needed = scopeOfKind(event);
        if (caller.hasScope(needed)) return Optional.empty();
        boolean broadcast = needed.equals(Scopes.PUBLISH_BROADCAST);
        String what = broadcast ? type + " to audience '" + NoticeEvent.EVERYONE + "'" : type;
        return Optional.of(new Refusal(type, needed, broadcast ? "audience" : "type",
                what + " needs scope " + needed + " or " + Scopes.PUBLISH));
    }

    /** The scope of the event's kind; for a read event it covers the token's own user only. */
    public static String scopeOfKind(Event event) {
        return switch (event) {
            case ReadEvent ignored -> Scopes.PUBLISH_READS;
            case FollowEvent ignored -> Scopes.PUBLISH_FOLLOWS;
            case BlogEvent ignored -> Scopes.PUBLISH_POSTS;
            case NoticeEvent.OfAudience notice when NoticeEvent.EVERYONE.equals(notice.audience()) -> Scopes.PUBLISH_BROADCAST;
            case NoticeEvent ignored -> Scopes.PUBLISH_NOTICES;
        };
    }

    private static boolean ownUser(Principal caller, long userId) {
        return caller.userId().isPresent() && caller.userId().getAsLong() == userId;
    }
}
