package io.readmark.e2e;

import io.readmark.e2e.PipelineFixture.Counts;
import io.readmark.e2e.PipelineFixture.WireEvent;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redelivery (a producer retry, a crash before the offset commit) puts the very same record on the topic again.
 * For every event type, the duplicate must change nothing: counts stay exact. Each duplicate is followed by a
 * barrier event on the same topic and key whose effect is visible, so the duplicate is known to be applied.
 */
class ReplayIT {

    private static final Instant NOON = Instant.parse("2026-01-01T12:00:00Z");
    @AutoClose
    private static PipelineFixture pipeline;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = PipelineFixture.start("replay");
    }

    private static Instant minutes(long m) {
        return NOON.plusSeconds(60 * m);
    }

    @Test
    void shouldCountAPublishDeliveredTwiceOnce() throws Exception {
        // Given a follower
        long author = pipeline.newId(), user = pipeline.newId(), blog = pipeline.newId(), barrier = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author));

        // When the same publish record arrives twice, then another publish
        WireEvent publish = pipeline.published(blog, author, minutes(1));
        pipeline.produce(publish, publish, pipeline.published(barrier, author, minutes(2)));

        // Then the blog is unread once
        pipeline.awaitVisible(user, author, barrier);
        assertThat(pipeline.unread(user, author)).containsExactly(barrier, blog);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(2, Map.of(author, 2L)));
    }

    @Test
    void shouldKeepABlogReadWhenItsPublishIsReplayedAfterTheRead() throws Exception {
        // Given a follower who read one of two delivered blogs
        long author = pipeline.newId(), user = pipeline.newId();
        long blog = pipeline.newId(), kept = pipeline.newId(), barrier = pipeline.newId();
        WireEvent publish = pipeline.published(blog, author, minutes(1));
        pipeline.produce(pipeline.followed(user, author), publish, pipeline.published(kept, author, minutes(2)));
        pipeline.awaitUnread(user, author, kept, blog);
        pipeline.produce(pipeline.read(user, blog, author, minutes(5)));
        pipeline.awaitUnread(user, author, kept);

        // When the publish of the read blog is redelivered (a replay after a crash), then another publish
        pipeline.produce(publish, pipeline.published(barrier, author, minutes(3)));

        // Then the read blog stays read
        pipeline.awaitVisible(user, author, barrier);
        assertThat(pipeline.unread(user, author)).containsExactly(barrier, kept);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(2, Map.of(author, 2L)));
    }

    @Test
    void shouldCountAReadDeliveredTwiceOnce() throws Exception {
        // Given a follower with three blogs unread
        long author = pipeline.newId(), user = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId(), third = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author), pipeline.published(first, author, minutes(1)),
                pipeline.published(second, author, minutes(2)), pipeline.published(third, author, minutes(3)));
        pipeline.awaitUnread(user, author, third, second, first);

        // When the same read record arrives twice, then a read of another blog
        WireEvent read = pipeline.read(user, first, author, minutes(5));
        pipeline.produce(read, read, pipeline.read(user, second, author, minutes(6)));

        // Then exactly two blogs were read
        pipeline.awaitUnread(user, author, third);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));
    }

    @Test
    void shouldApplyAReadAllDeliveredTwiceOnce() throws Exception {
        // Given a follower with three blogs unread
        long author = pipeline.newId(), user = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId(), third = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author), pipeline.published(first, author, minutes(1)),
                pipeline.published(second, author, minutes(2)), pipeline.published(third, author, minutes(3)));
        pipeline.awaitUnread(user, author, third, second, first);

        // When the same read-all (up to the first blog) arrives twice, then a read of the third blog
        WireEvent readAll = pipeline.readAll(user, author, minutes(1));
        pipeline.produce(readAll, readAll, pipeline.read(user, third, author, minutes(6)));

        // Then only the second blog is left, and counted once
        pipeline.awaitUnread(user, author, second);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));
    }

    @Test
    void shouldCountADeleteDeliveredTwiceOnce() throws Exception {
        // Given a follower with three blogs unread
        long author = pipeline.newId(), user = pipeline.newId();
        long first = pipeline.newId(), second = pipeline.newId(), third = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author), pipeline.published(first, author, minutes(1)),
                pipeline.published(second, author, minutes(2)), pipeline.published(third, author, minutes(3)));
        pipeline.awaitUnread(user, author, third, second, first);

        // When the same delete record arrives twice, then a delete of another blog
        WireEvent delete = pipeline.deleted(first, author, minutes(5));
        pipeline.produce(delete, delete, pipeline.deleted(second, author, minutes(6)));

        // Then exactly two blogs are gone
        pipeline.awaitUnread(user, author, third);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));
    }

    @Test
    void shouldApplyAnUnfollowDeliveredTwiceOnce() throws Exception {
        // Given a user following two authors with unread of both, and another follower of the first author
        long author = pipeline.newId(), otherAuthor = pipeline.newId(), user = pipeline.newId(), other = pipeline.newId();
        long blog = pipeline.newId(), elsewhere = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author), pipeline.followed(user, otherAuthor), pipeline.followed(other, author),
                pipeline.published(blog, author, minutes(1)), pipeline.published(elsewhere, otherAuthor, minutes(1)));
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(2, Map.of(author, 1L, otherAuthor, 1L))));
        pipeline.awaitUnread(other, author, blog);

        // When the same unfollow record arrives twice, then the other follower's unfollow
        WireEvent unfollow = pipeline.unfollowed(user, author);
        pipeline.produce(unfollow, unfollow, pipeline.unfollowed(other, author));

        // Then the user lost that author's unread once, and kept the other author's
        pipeline.awaitCounts(other, counts -> assertThat(counts).isEqualTo(new Counts(0, Map.of())));
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(otherAuthor, 1L)));
        assertThat(pipeline.unread(user, author)).isEmpty();
        assertThat(pipeline.unread(user, otherAuthor)).containsExactly(elsewhere);
    }

    @Test
    void shouldDeliverOnceToAFollowDeliveredTwiceAndNotBackfillOnItsReplay() throws Exception {
        // Given the same follow record arrives twice, then a publish
        long author = pipeline.newId(), user = pipeline.newId(), first = pipeline.newId(), second = pipeline.newId();
        WireEvent follow = pipeline.followed(user, author);
        pipeline.produce(follow, follow, pipeline.published(first, author, minutes(1)));
        pipeline.awaitVisible(user, author, first);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));

        // When the follow is replayed once more after the user read the blog, then the author publishes again
        pipeline.produce(pipeline.read(user, first, author, minutes(5)));
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(0, Map.of())));
        pipeline.produce(follow, pipeline.published(second, author, minutes(2)));

        // Then the user gets the new blog once, and the read one does not come back
        pipeline.awaitVisible(user, author, second);
        assertThat(pipeline.unread(user, author)).containsExactly(second);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));
    }
}
