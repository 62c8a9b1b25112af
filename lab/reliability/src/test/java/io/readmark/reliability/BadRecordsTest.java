package io.readmark.reliability;

import io.readmark.reliability.BadRecords.BadRecord;
import io.readmark.reliability.BadRecords.Category;
import io.readmark.reliability.BadRecords.Kind;
import io.readmark.reliability.BadRecords.Target;
import io.readmark.schemas.InvalidEventException;
import io.readmark.schemas.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BadRecordsTest {

    @Test
    void shouldMakeTheSameRecordsFromTheSameSeed() {
        BadRecords first = new BadRecords(42);
        BadRecords second = new BadRecords(42);
        for (Target target : Target.values()) {
            List<BadRecord> a = IntStream.range(0, 200).mapToObj(i -> first.next(target)).toList();
            List<BadRecord> b = IntStream.range(0, 200).mapToObj(i -> second.next(target)).toList();
            assertThat(a).zipSatisfy(b, (x, y) -> {
                assertThat(x.kind()).isEqualTo(y.kind());
                assertThat(x.key()).isEqualTo(y.key());
                assertThat(x.value()).isEqualTo(y.value());
            });
        }
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void shouldCoverEveryKindThatAppliesWithEachRecordInsideKafkasLimit(Target target) {
        List<BadRecord> every = new BadRecords(7).everyKind(target);

        assertThat(every).extracting(BadRecord::kind).containsExactlyInAnyOrderElementsOf(BadRecords.kinds(target));
        assertThat(every).allSatisfy(record -> assertThat(record.size()).isLessThan(BadRecords.KAFKA_RECORD_LIMIT - 100));
        assertThat(every).filteredOn(record -> record.kind() == Kind.NEAR_RECORD_LIMIT)
                .singleElement().satisfies(record -> assertThat(record.size()).isGreaterThan(BadRecords.KAFKA_RECORD_LIMIT - 200));
    }

    @Test
    void shouldSizeOversizeEventsJustAboveTheMaximumEventSizeAndKeepOtherEventsBelowIt() {
        BadRecords records = new BadRecords(3);
        for (Target target : List.of(Target.BLOG_EVENTS, Target.FOLLOW_EVENTS, Target.READ_EVENTS)) {
            for (int i = 0; i < 500; i++) {
                BadRecord record = records.next(target);
                int value = record.value() == null ? 0 : record.value().length;
                if (record.category() == Category.OVERSIZE) assertThat(value).isGreaterThan(Topics.MAX_EVENT_BYTES);
                else assertThat(value).as("%s", record).isLessThanOrEqualTo(Topics.MAX_EVENT_BYTES);
            }
        }
    }

    @Test
    void shouldRefuseAKindThatDoesNotApplyToTheTopic() {
        assertThatThrownBy(() -> new BadRecords(1).next(Target.FANOUT_CHUNKS, Kind.WRONG_KEY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BadRecords(1).next(Target.READ_EVENTS, Kind.BAD_FOLLOWER))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BadRecords(1).next(Target.BLOG_EVENTS, Kind.BAD_BLOG_LIST))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Empty, too long, or a bad item: each one the serde refuses, naming the list or the item. */
    @Test
    void shouldMakeBlogListsTheContractRefusesNamingTheListOrItsItem() {
        BadRecords records = new BadRecords(11);
        for (int i = 0; i < 200; i++) {
            BadRecord record = records.next(Target.READ_EVENTS, Kind.BAD_BLOG_LIST);

            assertThat(record.category()).isEqualTo(Category.FIELD);
            assertThatThrownBy(() -> Topics.EVENT_SERDE.decode(record.value())).as("%s", record)
                    .isInstanceOfSatisfying(InvalidEventException.class,
                            e -> assertThat(e.field()).matches("blogs(\\[\\d+](\\.(blogId|authorId))?)?"));
        }
    }
}
