package io.readmark.processor.rebuild;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RebuildOffsetsTest {

    private static final TopicPartition P0 = new TopicPartition("blog-events", 0);
    private static final TopicPartition P1 = new TopicPartition("blog-events", 1);
    private static final TopicPartition EMPTY = new TopicPartition("blog-events", 2);

    /** Partition 0 retains offsets 10..109, partition 1 0..49, partition 2 nothing. */
    private final RebuildOffsets offsets = new RebuildOffsets(Map.of(P0, 10L, P1, 0L, EMPTY, 7L), Map.of(P0, 110L, P1, 50L, EMPTY, 7L));

    @Test
    void shouldCountTheRetainedRecordsUpToTheCapturedEnds() {
        assertThat(offsets.total()).isEqualTo(150);
        assertThat(offsets.applied(Map.of())).isZero();
        assertThat(offsets.applied(Map.of(P0, new OffsetAndMetadata(60), P1, new OffsetAndMetadata(50)))).isEqualTo(100);
        assertThat(offsets.applied(Map.of(P0, new OffsetAndMetadata(500), P1, new OffsetAndMetadata(80))))
                .as("records produced after the start are not counted").isEqualTo(150);
    }

    @Test
    void shouldBeReachedOnceEveryPartitionWithRecordsCommittedItsEnd() {
        assertThat(offsets.reached(Map.of(P0, new OffsetAndMetadata(110)))).isFalse();
        assertThat(offsets.reached(Map.of(P0, new OffsetAndMetadata(109), P1, new OffsetAndMetadata(50)))).isFalse();
        assertThat(offsets.reached(Map.of(P0, new OffsetAndMetadata(110), P1, new OffsetAndMetadata(51))))
                .as("the empty partition needs no commit").isTrue();
        assertThat(new RebuildOffsets(Map.of(EMPTY, 7L), Map.of(EMPTY, 7L)).reached(Map.of())).isTrue();
    }
}
