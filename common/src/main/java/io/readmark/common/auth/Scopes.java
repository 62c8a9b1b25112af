package io.readmark.common.auth;

import java.util.List;

/**
 * The OAuth scopes Readmark's APIs know; an issuer puts them in a token's {@code scope} or {@code scp}. Publishing has
 * one scope per kind of event, and {@link #PUBLISH} for every kind and every user ({@link PublishRule} decides).
 */
public final class Scopes {

    /** The service-wide publishing scope: any event for any user (the blog service's own account). */
    public static final String PUBLISH = "readmark:publish";

    /** Read events (BlogRead, AuthorReadAll, AllRead, InboxSeen, NoticeRead, NoticesAllRead) of the token's own user. */
    public static final String PUBLISH_READS = "readmark:publish:reads";

    /** Followed and Unfollowed, for any follower. */
    public static final String PUBLISH_FOLLOWS = "readmark:publish:follows";

    /** BlogPublished and BlogDeleted, for any author. */
    public static final String PUBLISH_POSTS = "readmark:publish:posts";

    /** Notice events (NoticePublished, NoticeWithdrawn, NoticeSent, AudienceJoined, AudienceLeft), but not to everyone. */
    public static final String PUBLISH_NOTICES = "readmark:publish:notices";

    /** NoticePublished and NoticeWithdrawn of the audience every user belongs to. */
    public static final String PUBLISH_BROADCAST = "readmark:publish:broadcast";

    /** May read any user's unread state from the view API, not only the token subject's own. */
    public static final String READ_ANY = "readmark:read-any";

    /** Every scope that lets a token publish something, the service-wide one first. */
    public static final List<String> PUBLISHING = List.of(
            PUBLISH, PUBLISH_READS, PUBLISH_FOLLOWS, PUBLISH_POSTS, PUBLISH_NOTICES, PUBLISH_BROADCAST);

    private Scopes() {
    }
}
