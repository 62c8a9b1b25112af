package io.readmark.store.unread;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class AuthorCountsTest {

    @Test
    void shouldOrderAuthorsByIdWhateverOrderTheHashGaveThem() {
        AuthorCounts counts = AuthorCounts.of(new long[]{30, 7, 1_000_000_000_000L, 12, 0}, new long[]{3, 1, 9, 2, 0}, 4);

        assertThat(counts.keySet()).containsExactly(7L, 12L, 30L, 1_000_000_000_000L);
        assertThat(List.of(counts.authorId(0), counts.count(0), counts.authorId(3), counts.count(3)))
                .containsExactly(7L, 1L, 1_000_000_000_000L, 9L);
        assertThat(counts).isEqualTo(new TreeMap<>(Map.of(30L, 3L, 7L, 1L, 1_000_000_000_000L, 9L, 12L, 2L)));
    }

    @Test
    void shouldAnswerLookupsLikeAMap() {
        AuthorCounts counts = AuthorCounts.of(new long[]{5, 3}, new long[]{50, 30}, 2);

        assertThat(counts.get(3L)).isEqualTo(30L);
        assertThat(counts.get(4L)).isNull();
        assertThat(counts.get("3")).as("only Long keys name authors").isNull();
        assertThat(counts.containsKey(5L)).isTrue();
        assertThat(counts).hasSize(2);
        assertThat(AuthorCounts.of(new long[3], new long[3], 0)).isSameAs(AuthorCounts.NONE).isEmpty();
    }
}
