package io.readmark.e2e;

import io.readmark.e2e.PipelineFixture.Counts;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DESIGN's invariant 4 end to end: a read, a read-all or a delete that the processor applies before the
 * delivery of the same blog still wins. Records go straight to Kafka so each test decides which topic gets what
 * when; a visible barrier proves the early event was applied before the late publish is even produced.
 */
class OrderingRacesIT {

    private static final Instant NOON = Instant.parse("2026-01-01T12:00:00Z");
    @AutoClose
    private static PipelineFixture pipeline;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = PipelineFixture.start("races");
    }

    private static Instant minutes(long m) {
        return NOON.plusSeconds(60 * m);
    }

    @Test
    void shouldKeepABlogReadWhenTheReadIsProcessedBeforeItsPublish() throws Exception {
        // Given a follower with one blog of the author unread (so the follow is applied)
        long author = pipeline.newId(), user = pipeline.newId();
        long seen = pipeline.newId(), early = pipeline.newId(), after = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author), pipeline.published(seen, author, minutes(1)));
        pipeline.awaitVisible(user, author, seen);

        // When the user's read of a not yet delivered blog is processed — proven by a later read on the same
        // partition, whose effect shows
        pipeline.produce(pipeline.read(user, early, author, minutes(10)), pipeline.read(user, seen, author, minutes(10)));
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(0, Map.of())));
        // and only then that blog's publish arrives, followed by another publish as barrier
        pipeline.produce(pipeline.published(early, author, minutes(2)), pipeline.published(after, author, minutes(3)));

        // Then the early-read blog stays read; the later one is unread
        pipeline.awaitVisible(user, author, after);
        assertThat(pipeline.unread(user, author)).containsExactly(after);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));
    }

    @Test
    void shouldKeepOlderBlogsReadWhenAReadAllIsProcessedBeforeTheirPublish() throws Exception {
        // Given a follower with one blog of the author unread
        long author = pipeline.newId(), user = pipeline.newId();
        long seen = pipeline.newId(), older = pipeline.newId(), atReadAt = pipeline.newId(), newer = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author), pipeline.published(seen, author, minutes(1)));
        pipeline.awaitVisible(user, author, seen);

        // When the user reads everything of the author up to minute 5 — applied, as the unread blog is gone
        pipeline.produce(pipeline.readAll(user, author, minutes(5)));
        pipeline.awaitCounts(user, counts -> assertThat(counts).isEqualTo(new Counts(0, Map.of())));
        // and only then blogs published before, exactly at and after that moment are delivered
        pipeline.produce(pipeline.published(older, author, minutes(3)), pipeline.published(atReadAt, author, minutes(5)),
                pipeline.published(newer, author, minutes(6)));

        // Then the ones at or before readAt stay read; the newer one is unread
        pipeline.awaitVisible(user, author, newer);
        assertThat(pipeline.unread(user, author)).containsExactly(newer);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(1, Map.of(author, 1L)));
    }

    @Test
    void shouldNeverShowABlogWhoseDeleteIsProcessedBeforeItsPublish() throws Exception {
        // Given a follower with one blog of the author unread (so the follow is applied)
        long author = pipeline.newId(), user = pipeline.newId(), other = pipeline.newId();
        long seen = pipeline.newId(), doomed = pipeline.newId(), after = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author), pipeline.followed(other, author),
                pipeline.published(seen, author, minutes(1)));
        pipeline.awaitVisible(user, author, seen);
        pipeline.awaitVisible(other, author, seen);

        // When the author's delete of a blog reaches the topic before that blog's publish, then another publish
        pipeline.produce(pipeline.deleted(doomed, author, minutes(3)), pipeline.published(doomed, author, minutes(2)),
                pipeline.published(after, author, minutes(4)));

        // Then no follower ever gets the deleted blog
        pipeline.awaitVisible(user, author, after);
        pipeline.awaitVisible(other, author, after);
        assertThat(pipeline.unread(user, author)).containsExactly(after, seen);
        assertThat(pipeline.unread(other, author)).containsExactly(after, seen);
        assertThat(pipeline.counts(user)).isEqualTo(new Counts(2, Map.of(author, 2L)));
        assertThat(pipeline.counts(other)).isEqualTo(new Counts(2, Map.of(author, 2L)));
    }
}
