package io.readmark.store.notice;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NoticeIdsTest {

    private static NoticeIds ids(long... ids) {
        return NoticeIds.sortedDistinct(ids, ids.length);
    }

    @Test
    void shouldSortAndDropRepeats() {
        NoticeIds ids = NoticeIds.of(List.of(new LiveNotice(30, "a", 1, 0), new LiveNotice(10, "b", 2, 0),
                new LiveNotice(30, "b", 3, 0), new LiveNotice(20, "a", 4, 0)));

        assertThat(ids).hasToString("[10, 20, 30]");
        assertThat(ids.size()).isEqualTo(3);
        assertThat(ids.contains(20)).isTrue();
        assertThat(ids.contains(25)).isFalse();
        assertThat(NoticeIds.of(List.of()).isEmpty()).isTrue();
    }

    @Test
    void shouldTakeAwayAndUnite() {
        assertThat(ids(5, 1, 3, 7).without(ids(3, 4, 7))).hasToString("[1, 5]");
        assertThat(ids(1, 2).without(ids(1, 2)).isEmpty()).isTrue();
        assertThat(ids(1, 2).without(NoticeIds.NONE)).hasToString("[1, 2]");
        assertThat(ids(4, 1).union(ids(2, 4, 9))).hasToString("[1, 2, 4, 9]");
        assertThat(NoticeIds.NONE.union(ids(3))).hasToString("[3]");
    }

    @Test
    void shouldUseOnlyTheGivenLength() {
        long[] buffer = {9, 3, 3, 0, 0};

        assertThat(NoticeIds.sortedDistinct(buffer, 3)).hasToString("[3, 9]");
        assertThat(NoticeIds.sortedDistinct(buffer, 0).isEmpty()).isTrue();
    }
}
