package io.readmark.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventTimeLimitTest {

    private static final Instant RECORDED = Instant.parse("2026-01-01T12:00:00Z");
    private static final EventTimeLimit ONE_HOUR = new EventTimeLimit(Duration.ofHours(1));

    @Test
    void shouldNameTheFieldThatHoldsEachEventsOwnInstant() {
        Instant at = RECORDED.minusSeconds(5);
        List<Event> events = List.of(new BlogPublished("e1", 1001, 7, at), new BlogDeleted("e2", 1001, 7, at),
                new Followed("e3", 101, 7, at), new Unfollowed("e4", 101, 7, at), new BlogRead("e5", 101, 1001, 7, at),
                new AuthorReadAll("e6", 101, 7, at), new AllRead("e7", 101, at), new InboxSeen("e8", 101, at),
                new NoticePublished("e9", 501, "everyone", at, at.plusSeconds(60)), new NoticeWithdrawn("e10", 501, "staff", at),
                new AudienceJoined("e11", 101, "staff", at), new AudienceLeft("e12", 101, "staff", at),
                new NoticeSent("e13", 502, List.of(101L), at), new NoticeRead("e14", 101, 501, at), new NoticesAllRead("e15", 101, at),
                new BlogsRead("e16", 101, List.of(new BlogsRead.Blog(1001, 7)), at));

        for (Event event : events) {
            EventTimeLimit.EventTime time = EventTimeLimit.timeOf(event);
            JsonNode json = Json.MAPPER.valueToTree(event);
            assertThat(json.path(time.field()).asText()).as(event.typeName()).isEqualTo(at.toString());
            assertThat(time.instant()).isEqualTo(at);
        }
    }

    @Test
    void shouldRefuseAnEventDatedBeyondTheSkewNamingItsField() {
        assertThatThrownBy(() -> ONE_HOUR.check(new AllRead("e", 101, Instant.parse("9999-12-31T23:59:59Z")), RECORDED))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                    assertThat(e.field()).isEqualTo("readAt");
                    assertThat(e.reason()).contains("9999-12-31T23:59:59Z", "PT1H", RECORDED.toString());
                });
        assertThatThrownBy(() -> ONE_HOUR.check(new InboxSeen("e", 101, RECORDED.plus(Duration.ofHours(1)).plusMillis(1)), RECORDED))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.field()).isEqualTo("seenAt"));
    }

    @Test
    void shouldAcceptEventsWithinTheSkewAndAnyInThePast() {
        assertThatCode(() -> {
            ONE_HOUR.check(new AllRead("e", 101, RECORDED.plus(Duration.ofHours(1))), RECORDED);
            ONE_HOUR.check(new BlogPublished("e", 1, 7, Instant.parse("0000-01-01T00:00:00Z")), RECORDED);
            new EventTimeLimit(Duration.ZERO).check(new Followed("e", 101, 7, RECORDED), RECORDED);
        }).doesNotThrowAnyException();
    }

    @Test
    void shouldLeaveANoticesExpiryOutOfTheCheck() {
        NoticePublished lastsForAges = new NoticePublished("e", 501, "staff", RECORDED, Instant.parse("9999-12-31T23:59:59Z"));

        assertThatCode(() -> ONE_HOUR.check(lastsForAges, RECORDED)).doesNotThrowAnyException();
    }

    @Test
    void shouldRefuseANegativeOrBoundlessSkew() {
        assertThatThrownBy(() -> new EventTimeLimit(Duration.ofSeconds(-1))).hasMessageContaining(EventTimeLimit.SETTING);
        assertThatThrownBy(() -> new EventTimeLimit(Duration.ofDays(365_000))).hasMessageContaining(EventTimeLimit.SETTING);
    }
}
