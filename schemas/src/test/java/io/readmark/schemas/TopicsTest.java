package io.readmark.schemas;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TopicsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    @Test
    void shouldRouteEachEventToItsTopicKeyedByTheContractsKeyId() {
        Topics topics = Topics.defaults();
        assertThat(topics.topicFor(new BlogPublished("e", 1001, 7, NOW)).name()).isEqualTo("blog-events");
        assertThat(topics.topicFor(new Unfollowed("e", 101, 7, NOW)).name()).isEqualTo("follow-events");
        assertThat(topics.topicFor(new AuthorReadAll("e", 101, 7, NOW)).name()).isEqualTo("read-events");
        assertThat(topics.topicFor(new AllRead("e", 101, NOW)).name()).isEqualTo("read-events");
        assertThat(topics.topicFor(new InboxSeen("e", 101, NOW)).name()).isEqualTo("read-events");
        assertThat(topics.topicFor(new BlogsRead("e", 101, List.of(new BlogsRead.Blog(1001, 7)), NOW)).name())
                .isEqualTo("read-events");

        assertThat(Topics.keyOf(new BlogDeleted("e", 1001, 7, NOW))).isEqualTo("7");
        assertThat(Topics.keyOf(new Followed("e", 101, 7, NOW))).isEqualTo("7");
        assertThat(Topics.keyOf(new BlogRead("e", 101, 1001, 7, NOW))).isEqualTo("101");
        assertThat(Topics.keyOf(new AllRead("e", 101, NOW))).isEqualTo("101");
        assertThat(Topics.keyOf(new InboxSeen("e", 101, NOW))).isEqualTo("101");
        assertThat(Topics.keyOf(new BlogsRead("e", 101, List.of(new BlogsRead.Blog(1001, 7)), NOW))).isEqualTo("101");
    }

    @Test
    void shouldHonourConfiguredNames() {
        Topics topics = Topics.named("b", "f", "r", "dlq", "fan", "n");
        assertThat(topics.allNames()).containsExactly("b", "f", "r", "dlq", "fan", "n");
        assertThat(topics.topicFor(new BlogRead("e", 1, 2, 3, NOW)).name()).isEqualTo("r");
    }

    @Test
    void shouldTakeNamesFromTheLookupAndDefaultsForTheRest() {
        Map<String, String> environment = Map.of("READMARK_TOPIC_READ_EVENTS", "prod.reads", "READMARK_TOPIC_DLQ", "prod.dlq");
        Topics topics = Topics.from(name -> Optional.ofNullable(environment.get(name)));
        assertThat(topics.allNames()).containsExactly("blog-events", "follow-events", "prod.reads", "prod.dlq", "readmark-fanout", "notice-events");
    }
}
