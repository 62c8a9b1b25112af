package io.readmark.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.e2e.PipelineFixture.Counts;
import io.readmark.e2e.PipelineFixture.Page;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each event type does to unread state, end to end: producer API → Kafka → stream processor → Redis → view
 * API. Where an event must NOT change something, a later event on the same topic and key whose effect is visible
 * serves as a barrier: Kafka keeps per-partition order, so once the barrier shows, the earlier event was applied.
 */
class UnreadSemanticsIT {

    private static final Instant NOON = Instant.parse("2026-01-01T12:00:00Z");
    @AutoClose
    private static PipelineFixture pipeline;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = PipelineFixture.start("semantics");
    }

    private static Instant minutes(long m) {
        return NOON.plusSeconds(60 * m);
    }

    @Test
    void shouldMakeAPublishedBlogUnreadForEveryFollowerButNotForTheAuthorNorForNonFollowers() throws Exception {
        // Given an author who follows themself (lowest id, so a wrong delivery to them would be applied first),
        // two followers, and a user who follows only another author
        long author = pipeline.newId(), otherAuthor = pipeline.newId();
        long alice = pipeline.newId(), bob = pipeline.newId(), stranger = pipeline.newId();
        pipeline.post(pipeline.followed(author, author), pipeline.followed(alice, author), pipeline.followed(bob, author),
                pipeline.followed(stranger, otherAuthor));

        // When the author publishes
        long blog = pipeline.newId();
        pipeline.post(pipeline.published(blog, author, minutes(1)));

        // Then both followers have it unread, with its publish time
        pipeline.awaitUnread(alice, author, blog);
        pipeline.awaitUnread(bob, author, blog);
        JsonNode item = pipeline.items(alice, author).get(0);
        assertThat(item.get("publishedAt").asText()).isEqualTo("2026-01-01T12:01:00Z");
        assertThat(pipeline.counts(alice)).isEqualTo(new Counts(1, Map.of(author, 1L)));
        assertThat(pipeline.counts(bob)).isEqualTo(new Counts(1, Map.of(author, 1L)));
        // And neither the author nor the non-follower has anything unread
        assertThat(pipeline.counts(author)).isEqualTo(new Counts(0, Map.of()));
        assertThat(pipeline.unread(author, author)).isEmpty();
        assertThat(pipeline.counts(stranger)).isEqualTo(new Counts(0, Map.of()));
        assertThat(pipeline.unread(stranger, author)).isEmpty();
    }

    @Test
    void shouldRemoveADeletedBlogFromEveryFollower() throws Exception {
        // Given two followers who both have two blogs of the author unread
        long author = pipeline.newId(), alice = pipeline.newId(), bob = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId();
        pipeline.post(pipeline.followed(alice, author), pipeline.followed(bob, author),
                pipeline.published(first, author, minutes(1)), pipeline.published(second, author, minutes(2)));
        pipeline.awaitUnread(alice, author, second, first);
        pipeline.awaitUnread(bob, author, second, first);

        // When the first blog is deleted
        pipeline.post(pipeline.deleted(first, author, minutes(3)));

        // Then it is gone for both, and their counts say so
        pipeline.awaitUnread(alice, author, second);
        pipeline.awaitUnread(bob, author, second);
        assertThat(pipeline.counts(alice)).isEqualTo(new Counts(1, Map.of(author, 1L)));
        assertThat(pipeline.counts(bob)).isEqualTo(new Counts(1, Map.of(author, 1L)));
    }

    @Test
    void shouldNotBackfillOlderBlogsToANewFollowerButDeliverLaterOnes() throws Exception {
        // Given an author with one follower and a blog that follower has already received
        long author = pipeline.newId(), early = pipeline.newId(), late = pipeline.newId();
        long older = pipeline.newId(), newer = pipeline.newId();
        pipeline.post(pipeline.followed(early, author), pipeline.published(older, author, minutes(1)));
        pipeline.awaitUnread(early, author, older);

        // When someone else follows only now (after the first blog was published), and the author then publishes again
        pipeline.post(pipeline.followed(late, author, minutes(1).plusSeconds(30)), pipeline.published(newer, author, minutes(2)));

        // Then the new follower gets only the later blog; the early one gets both
        pipeline.awaitUnread(late, author, newer);
        pipeline.awaitUnread(early, author, newer, older);
        assertThat(pipeline.counts(late)).isEqualTo(new Counts(1, Map.of(author, 1L)));
        assertThat(pipeline.counts(early)).isEqualTo(new Counts(2, Map.of(author, 2L)));
    }

    @Test
    void shouldDropAnUnfollowedAuthorsUnreadAndDeliverNothingOfThemAfterwards() throws Exception {
        // Given a user following two authors, with unread of both, and another follower of the first author
        // (higher id, so a wrong delivery to the user would be applied before the other follower's)
        long author = pipeline.newId(), otherAuthor = pipeline.newId();
        long user = pipeline.newId(), other = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId(), third = pipeline.newId(), elsewhere = pipeline.newId();
        pipeline.post(pipeline.followed(user, author), pipeline.followed(user, otherAuthor), pipeline.followed(other, author),
                pipeline.published(first, author, minutes(1)), pipeline.published(second, author, minutes(2)),
                pipeline.published(elsewhere, otherAuthor, minutes(1)));
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(3, Map.of(author, 2L, otherAuthor, 1L))));
        pipeline.awaitUnread(other, author, second, first);

        // When the user unfollows the first author
        pipeline.post(pipeline.unfollowed(user, author));

        // Then that author's unread set and count are gone, the total is adjusted, the other author is untouched
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(1, Map.of(otherAuthor, 1L))));
        assertThat(pipeline.unread(user, author)).isEmpty();
        assertThat(pipeline.unread(user, otherAuthor)).containsExactly(elsewhere);

        // And when the author publishes again, it reaches the remaining follower only
        pipeline.post(pipeline.published(third, author, minutes(3)));
        pipeline.awaitUnread(other, author, third, second, first);
        assertThat(pipeline.unread(user, author)).isEmpty();
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(otherAuthor, 1L)));
    }

    @Test
    void shouldCountAReadBlogDownForTheReaderOnly() throws Exception {
        // Given two followers with the same two blogs unread
        long author = pipeline.newId(), reader = pipeline.newId(), other = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId();
        pipeline.post(pipeline.followed(reader, author), pipeline.followed(other, author),
                pipeline.published(first, author, minutes(1)), pipeline.published(second, author, minutes(2)));
        pipeline.awaitUnread(reader, author, second, first);
        pipeline.awaitUnread(other, author, second, first);

        // When one of them reads the first blog
        pipeline.post(pipeline.read(reader, first, author, minutes(5)));

        // Then only the reader's unread and counts drop
        pipeline.awaitUnread(reader, author, second);
        assertThat(pipeline.counts(reader)).isEqualTo(new Counts(1, Map.of(author, 1L)));
        assertThat(pipeline.unread(other, author)).containsExactly(second, first);
        assertThat(pipeline.counts(other)).isEqualTo(new Counts(2, Map.of(author, 2L)));
    }

    @Test
    void shouldReadEveryListedBlogOfSeveralAuthorsAtOnceAndChangeNothingWhenReplayed() throws Exception {
        // Given a user with three blogs of two authors unread
        long author = pipeline.newId(), otherAuthor = pipeline.newId(), user = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId(), elsewhere = pipeline.newId();
        pipeline.post(pipeline.followed(user, author), pipeline.followed(user, otherAuthor),
                pipeline.published(first, author, minutes(1)), pipeline.published(second, author, minutes(2)),
                pipeline.published(elsewhere, otherAuthor, minutes(3)));
        pipeline.awaitCounts(user, counts -> assertThat(counts.total()).isEqualTo(3));

        // When one event marks one blog of each author read
        PipelineFixture.WireEvent reads = pipeline.blogsRead(user, minutes(5), first, author, elsewhere, otherAuthor);
        pipeline.post(reads);

        // Then exactly those two are read: counts, each author's list and the merged list
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(1, Map.of(author, 1L))));
        assertThat(pipeline.unread(user, author)).containsExactly(second);
        assertThat(pipeline.unread(user, otherAuthor)).isEmpty();
        assertThat(pipeline.get("/v1/users/" + user + "/unread/items?limit=100").get("items"))
                .extracting(item -> item.get("blogId").asLong()).containsExactly(second);

        // And the same event again, followed on the user's partition by an InboxSeen whose effect shows, changes nothing
        pipeline.post(reads, pipeline.inboxSeen(user, minutes(5)));
        PipelineFixture.eventually(() -> assertThat(pipeline.get("/v1/users/" + user + "/unread").get("unseen").asLong()).isZero());
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));
        assertThat(pipeline.unread(user, author)).containsExactly(second);
        assertThat(pipeline.unread(user, otherAuthor)).isEmpty();
    }

    @Test
    void shouldReadAllOfAnAuthorPublishedAtOrBeforeReadAtAndKeepNewerOnesAndOtherAuthors() throws Exception {
        // Given a user with three blogs of one author and one of another unread
        long author = pipeline.newId(), otherAuthor = pipeline.newId(), user = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId(), third = pipeline.newId(), elsewhere = pipeline.newId();
        pipeline.post(pipeline.followed(user, author), pipeline.followed(user, otherAuthor),
                pipeline.published(first, author, minutes(1)), pipeline.published(second, author, minutes(2)),
                pipeline.published(third, author, minutes(3)), pipeline.published(elsewhere, otherAuthor, minutes(1)));
        pipeline.awaitCounts(user, counts -> assertThat(counts.total()).isEqualTo(4));

        // When the user marks the author read up to exactly the second blog's publish time
        pipeline.post(pipeline.readAll(user, author, minutes(2)));

        // Then the first two are read (at-or-before is inclusive), the newer one and the other author stay unread
        pipeline.awaitUnread(user, author, third);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(2, Map.of(author, 1L, otherAuthor, 1L)));
        assertThat(pipeline.unread(user, otherAuthor)).containsExactly(elsewhere);
    }

    @Test
    void shouldPageTheSeedSequenceNewestFirstInPagesOfThree() throws Exception {
        // Given a follower and blogs 2, 3, 4, 6, 8, 10, 11 published in that order, publishedAt increasing with id
        long author = pipeline.newId(), user = pipeline.newId();
        pipeline.post(pipeline.followed(user, author));
        for (long blog : new long[]{2, 3, 4, 6, 8, 10, 11}) {
            pipeline.post(pipeline.published(blog, author, minutes(blog)));
        }
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(7, Map.of(author, 7L))));

        // When the follower pages with limit 3, passing each nextCursor back
        Page first = pipeline.page(user, author, 3, null);
        Page second = pipeline.page(user, author, 3, first.nextCursor());
        Page third = pipeline.page(user, author, 3, second.nextCursor());

        // Then the pages are [11, 10, 8], [6, 4, 3], [2], and the last one ends the list
        assertThat(first.blogIds()).containsExactly(11L, 10L, 8L);
        assertThat(first.nextCursor()).isNotNull();
        assertThat(second.blogIds()).containsExactly(6L, 4L, 3L);
        assertThat(second.nextCursor()).isNotNull();
        assertThat(third.blogIds()).containsExactly(2L);
        assertThat(third.nextCursor()).isNull();
        assertThat(pipeline.unread(user, author)).containsExactly(11L, 10L, 8L, 6L, 4L, 3L, 2L);
    }
}
