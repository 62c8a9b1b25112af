package io.readmark.common.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.readmark.common.http.ApiException;
import io.readmark.schemas.AllRead;
import io.readmark.schemas.AudienceJoined;
import io.readmark.schemas.AudienceLeft;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogDeleted;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Followed;
import io.readmark.schemas.InboxSeen;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.NoticeWithdrawn;
import io.readmark.schemas.NoticesAllRead;
import io.readmark.schemas.Unfollowed;

/** Which scope each event needs, and whose events a user-level scope covers. */
class PublishRuleTest {

    private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");
    private static final long USER = 101;
    private static final long OTHER = 102;

    /** One event of each type, of user {@link #USER} where the type names a user. */
    private static final Map<Event, String> SCOPE_OF_EACH_TYPE = Map.ofEntries(
            Map.entry(new BlogRead("e1", USER, 5, 7, AT), Scopes.PUBLISH_READS),
            Map.entry(new AuthorReadAll("e2", USER, 7, AT), Scopes.PUBLISH_READS),
            Map.entry(new AllRead("e3", USER, AT), Scopes.PUBLISH_READS),
            Map.entry(new InboxSeen("e4", USER, AT), Scopes.PUBLISH_READS),
            Map.entry(new NoticeRead("e5", USER, 9, AT), Scopes.PUBLISH_READS),
            Map.entry(new NoticesAllRead("e6", USER, AT), Scopes.PUBLISH_READS),
            Map.entry(new Followed("e7", USER, 7, AT), Scopes.PUBLISH_FOLLOWS),
            Map.entry(new Unfollowed("e8", USER, 7, AT), Scopes.PUBLISH_FOLLOWS),
            Map.entry(new BlogPublished("e9", 5, 7, AT), Scopes.PUBLISH_POSTS),
            Map.entry(new BlogDeleted("e10", 5, 7, AT), Scopes.PUBLISH_POSTS),
            Map.entry(new NoticePublished("e11", 9, "team-a", AT), Scopes.PUBLISH_NOTICES),
            Map.entry(new NoticeWithdrawn("e12", 9, "team-a", AT), Scopes.PUBLISH_NOTICES),
            Map.entry(new NoticeSent("e13", 9, List.of(OTHER), AT), Scopes.PUBLISH_NOTICES),
            Map.entry(new AudienceJoined("e14", OTHER, "team-a", AT), Scopes.PUBLISH_NOTICES),
            Map.entry(new AudienceLeft("e15", OTHER, "team-a", AT), Scopes.PUBLISH_NOTICES),
            Map.entry(new NoticePublished("e16", 9, "everyone", AT), Scopes.PUBLISH_BROADCAST),
            Map.entry(new NoticeWithdrawn("e17", 9, "everyone", AT), Scopes.PUBLISH_BROADCAST));

    private static Principal token(String subject, String... scopes) {
        return new Principal(subject, Set.of(scopes));
    }

    @Test
    void eachEventTypeNeedsTheScopeOfItsKindAndNoOther() {
        SCOPE_OF_EACH_TYPE.forEach((event, scope) -> {
            assertThat(PublishRule.scopeOfKind(event)).as(event.typeName()).isEqualTo(scope);
            assertThat(PublishRule.check(token(Long.toString(USER), scope), event)).as(event.typeName()).isEmpty();
            for (String other : Scopes.PUBLISHING) {
                if (other.equals(scope) || other.equals(Scopes.PUBLISH)) continue;
                assertThat(PublishRule.check(token(Long.toString(USER), other), event)).as(event.typeName() + " with " + other)
                        .hasValueSatisfying(refusal -> assertThat(refusal.scope()).isEqualTo(scope));
            }
        });
    }

    @Test
    void theServiceWideScopePublishesEveryEventOfEveryUser() {
        Principal blogService = token("blog-service", Scopes.PUBLISH);

        SCOPE_OF_EACH_TYPE.keySet().forEach(event ->
                assertThat(PublishRule.check(blogService, event)).as(event.typeName()).isEmpty());
        assertThat(PublishRule.check(blogService, new BlogRead("r", OTHER, 5, 7, AT))).isEmpty();
    }

    @Test
    void aReadsTokenMarksOnlyItsOwnUsersPostsRead() {
        // Given
        Principal user = token(Long.toString(USER), Scopes.PUBLISH_READS);

        // When
        Optional<PublishRule.Refusal> own = PublishRule.check(user, new BlogRead("own", USER, 5, 7, AT));
        Optional<PublishRule.Refusal> other = PublishRule.check(user, new BlogRead("other", OTHER, 5, 7, AT));

        // Then
        assertThat(own).isEmpty();
        assertThat(other).hasValueSatisfying(refusal -> {
            assertThat(refusal.eventType()).isEqualTo("BlogRead");
            assertThat(refusal.scope()).isEqualTo(Scopes.PUBLISH);
            assertThat(refusal.field()).isEqualTo("userId");
            assertThat(refusal.detail()).contains("BlogRead", "102", "readmark:publish:reads", "sub");
        });
    }

    @Test
    void aReadsTokenWhoseSubjectIsNoUserIdMarksNobodysPostsRead() {
        assertThat(PublishRule.check(token("reading-service", Scopes.PUBLISH_READS), new AllRead("a", USER, AT)))
                .hasValueSatisfying(refusal -> assertThat(refusal.scope()).isEqualTo(Scopes.PUBLISH));
        assertThat(PublishRule.check(token("0101", Scopes.PUBLISH_READS), new AllRead("a", USER, AT))).isPresent();
    }

    @Test
    void aReadOfAnotherUserNeedsTheServiceWideScopeEvenWithoutTheReadsScope() {
        assertThat(PublishRule.check(token(Long.toString(USER), Scopes.PUBLISH_POSTS), new InboxSeen("s", OTHER, AT)))
                .hasValueSatisfying(refusal -> assertThat(refusal.scope()).isEqualTo(Scopes.PUBLISH));
    }

    @Test
    void aFollowsTokenPublishingAPostIsRefusedNamingTheTypeAndTheScope() {
        Optional<PublishRule.Refusal> refused = PublishRule.check(token("follow-service", Scopes.PUBLISH_FOLLOWS),
                new BlogPublished("p", 5, 7, AT));

        assertThat(refused).hasValue(new PublishRule.Refusal("BlogPublished", Scopes.PUBLISH_POSTS, "type",
                "BlogPublished needs scope readmark:publish:posts or readmark:publish"));
    }

    @Test
    void aNoticesTokenBroadcastingToEveryoneIsRefusedNamingTheAudience() {
        Principal notices = token("notice-service", Scopes.PUBLISH_NOTICES);

        Optional<PublishRule.Refusal> toEveryone = PublishRule.check(notices, new NoticePublished("n", 9, "everyone", AT));

        assertThat(toEveryone).hasValueSatisfying(refusal -> {
            assertThat(refusal.scope()).isEqualTo(Scopes.PUBLISH_BROADCAST);
            assertThat(refusal.field()).isEqualTo("audience");
            assertThat(refusal.detail()).contains("NoticePublished", "everyone", "readmark:publish:broadcast");
        });
        assertThat(PublishRule.check(notices, new NoticePublished("n", 9, "team-a", AT))).isEmpty();
    }

    @Test
    void withAuthenticationOffEverythingIsAllowed() {
        SCOPE_OF_EACH_TYPE.keySet().forEach(event -> assertThat(PublishRule.check(null, event)).isEmpty());
    }

    @Test
    void aRefusalIsA403NamingTheScopeInTheChallengeAndTheFieldInTheProblem() {
        ApiException answer = new PublishRule.Refusal("BlogRead", Scopes.PUBLISH, "userId", "detail").toException();

        assertThat(answer.problem().status()).isEqualTo(403);
        assertThat(answer.problem().field()).isEqualTo("userId");
        assertThat(answer.headers()).containsEntry("WWW-Authenticate",
                "Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\"readmark:publish\"");
    }
}
