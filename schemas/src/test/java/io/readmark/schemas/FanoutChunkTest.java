package io.readmark.schemas;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A chunk on the fan-out topic names the users whose keys the worker writes: every one must be a real user id. */
class FanoutChunkTest {

    private static final String CHUNK = """
            {"jobId":"deliver-5","kind":%s,"authorId":7,"blogId":5,"atMillis":1,"jobFollowers":3,"jobStartedAtMillis":1,"followerIds":%s}""";

    @ParameterizedTest(name = "kind {0}, followers {1} -> {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "`\"DELIVER\"` | `[1,null]` | followerIds",
            "`\"DELIVER\"` | `[1,-4]`   | followerIds",
            "`\"DELIVER\"` | `[0]`      | followerIds",
            "`\"DELIVER\"` | `[]`       | followerIds",
            "`\"DELIVER\"` | `[\"+1\"]` | followerIds",
            "`0`           | `[1]`      | kind",
            "`\"deliver\"` | `[1]`      | kind",
    })
    void shouldRejectAChunkWithABadFollowerOrKindNamingTheField(String kind, String followers, String field) {
        byte[] json = CHUNK.formatted(kind, followers).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Topics.CHUNK_SERDE.decode(json))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                    assertThat(e.field()).startsWith(field);
                    if (field.equals("kind")) assertThat(e.reason()).isEqualTo("must be one of [DELIVER, REMOVE, NOTICE]");
                });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {"`[1,2,\"3\"]`"})
    void shouldAcceptPositiveFollowerIds(String followers) {
        byte[] json = CHUNK.formatted("\"REMOVE\"", followers).getBytes(StandardCharsets.UTF_8);
        assertThat(Topics.CHUNK_SERDE.decode(json).followerIds()).containsExactly(1L, 2L, 3L);
    }
}
